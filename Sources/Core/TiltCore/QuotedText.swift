/// The first 40 bytes of a field or a line, kept in place (no allocation) so an
/// error can quote what it refused without holding megabytes of input.
struct QuotedText: Sendable {
    static let capacity = 40

    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    private(set) var count = 0
    /// More bytes came than were kept.
    private(set) var truncated = false

    init() {}

    mutating func reset() {
        count = 0
        truncated = false
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        guard count < Self.capacity else { truncated = true; return }
        let index = count
        withUnsafeMutableBytes(of: &storage) { $0[index] = byte }
        count += 1
    }

    /// The kept bytes as one printable line: trailing blanks dropped, bytes
    /// outside printable ASCII shown as `?`, `…` when more came.
    var text: String {
        var copy = storage
        var end = count
        return withUnsafeBytes(of: &copy) { raw in
            while end > 0 && (raw[end - 1] == 0x20 || raw[end - 1] == 0x09) && !truncated { end -= 1 }
            var out = String(decoding: raw[0..<end].map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            if truncated { out += "…" }
            return out
        }
    }
}
