/// Splits a byte stream into lines in a fixed 128-byte buffer.
///
/// CR, LF and CRLF all end a line (empty lines are skipped, so CRLF is one
/// end). A line longer than `capacity` is dropped up to its end and counted
/// in `overlongLines`; the next line is read normally.
public struct LineAssembler: Sendable {
    /// Longest line kept, bytes (line end not counted).
    public static let capacity = 128

    @usableFromInline var storage: (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Lines dropped for being longer than `capacity`.
    @usableFromInline var count = 0
    @usableFromInline var overlong = false
    public private(set) var overlongLines: UInt64 = 0

    /// An empty assembler at the start of a line.
    public init() {}

    /// Bytes of an unfinished line.
    public var pendingByteCount: Int { count }

    /// Calls `line` with each complete line (terminator excluded) in `bytes`.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer) -> Void) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if overlong {
                    overlongLines += 1
                } else if count > 0 {
                    let lineCount = count
                    var copy = storage
                    withUnsafeBytes(of: &copy) { line(UnsafeRawBufferPointer(rebasing: $0[0..<lineCount])) }
                }
                count = 0
                overlong = false
            } else if !overlong {
                if count == Self.capacity {
                    overlong = true
                    count = 0
                } else {
                    let index = count
                    withUnsafeMutableBytes(of: &storage) { $0[index] = byte }
                    count += 1
                }
            }
        }
    }
}
