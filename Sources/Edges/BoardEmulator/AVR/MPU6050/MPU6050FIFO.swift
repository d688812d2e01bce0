/// The MPU-6050's 1024-byte FIFO. When full, new bytes push the oldest out
/// (the part's behaviour; readers then see misaligned records, which is why
/// drivers reset it on overflow).
struct MPU6050FIFO: Sendable, Hashable {
    static let capacity = 1024
    private var storage = [UInt8](repeating: 0, count: capacity)
    private var head = 0
    private(set) var count = 0
    /// The last byte read: what FIFO_R_W returns while the FIFO is empty.
    private var lastRead: UInt8 = 0

    /// Appends `bytes`; returns true if older bytes were pushed out.
    @discardableResult
    mutating func push(_ bytes: some Collection<UInt8>) -> Bool {
        var overflowed = false
        for byte in bytes {
            if count == Self.capacity {
                head = (head + 1) % Self.capacity
                count -= 1
                overflowed = true
            }
            storage[(head + count) % Self.capacity] = byte
            count += 1
        }
        return overflowed
    }

    mutating func pop() -> UInt8 {
        guard count > 0 else { return lastRead }
        lastRead = storage[head]
        head = (head + 1) % Self.capacity
        count -= 1
        return lastRead
    }

    mutating func clear() {
        head = 0
        count = 0
    }
}
