/// A FIFO of bytes that compacts rarely: appends at the back, takes from a
/// moving head, and moves the rest down only when the head has passed half.
struct ByteQueue: Sendable {
    private var storage: [UInt8] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }

    mutating func append(_ byte: UInt8) { storage.append(byte) }

    mutating func append(_ bytes: UnsafeRawBufferPointer) { storage.append(contentsOf: bytes) }

    mutating func append(contentsOf bytes: some Collection<UInt8>) { storage.append(contentsOf: bytes) }

    mutating func popFirst() -> UInt8? {
        guard head < storage.count else { return nil }
        defer { removeFirst(1) }
        return storage[head]
    }

    mutating func removeFirst(_ n: Int) {
        head += min(n, count)
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4096 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }

    /// The queued bytes, oldest first, without copying.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[head...])) }
    }

    /// A copy of the queued bytes.
    var bytes: [UInt8] { Array(storage[head...]) }
}
