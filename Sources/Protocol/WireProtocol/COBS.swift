/// Consistent Overhead Byte Stuffing (Cheshire & Baker 1999): removes every 0x00
/// from a payload so a single 0x00 can end each frame (docs/protocol.md).
///
/// The encoding is the canonical one: a block of 254 non-zero bytes gets code
/// 0xFF and no trailing empty block when the payload ends right after it.
/// Both directions work on caller-provided buffers and never allocate.
public enum COBS {
    /// The largest encoded size of `count` payload bytes (delimiter not included):
    /// one code byte per started run of 254 bytes, at least one.
    @inlinable public static func maxEncodedCount(_ count: Int) -> Int {
        count + count / 254 + 1
    }

    /// Encodes `source` into `destination`, which must hold
    /// `maxEncodedCount(source.count)` bytes. Returns the encoded count.
    /// Writes no delimiter.
    @inlinable @discardableResult
    public static func encode(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int {
        precondition(destination.count >= maxEncodedCount(source.count), "COBS destination too small")
        var codeIndex = 0
        var out = 1
        var code: UInt8 = 1
        for byte in source {
            if code == 0xFF {  // a full block: close it only now that more bytes follow
                destination[codeIndex] = code
                codeIndex = out
                out += 1
                code = 1
            }
            if byte == 0 {
                destination[codeIndex] = code
                codeIndex = out
                out += 1
                code = 1
            } else {
                destination[out] = byte
                out += 1
                code += 1
            }
        }
        destination[codeIndex] = code
        return out
    }

    /// Appends the encoding of `source` to `output`. Writes no delimiter.
    @inlinable public static func encode(_ source: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) {
        var codeIndex = output.count
        output.append(0)
        var code: UInt8 = 1
        for byte in source {
            if code == 0xFF {
                output[codeIndex] = code
                codeIndex = output.count
                output.append(0)
                code = 1
            }
            if byte == 0 {
                output[codeIndex] = code
                codeIndex = output.count
                output.append(0)
                code = 1
            } else {
                output.append(byte)
                code += 1
            }
        }
        output[codeIndex] = code
    }

    /// Decodes `source` (one frame's bytes, without its delimiter) into
    /// `destination`. Returns the decoded count, or nil when `source` is not
    /// valid COBS (a 0x00 inside, or a code pointing past the end) or the
    /// result does not fit `destination`.
    @inlinable public static func decode(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int? {
        let count = source.count
        var index = 0
        var out = 0
        while index < count {
            let code = Int(source[index])
            if code == 0 { return nil }
            index += 1
            let end = index + code - 1
            if end > count { return nil }
            let blockEnd = out + (code - 1)
            if blockEnd > destination.count { return nil }
            while index < end {
                let byte = source[index]
                if byte == 0 { return nil }
                destination[out] = byte
                out += 1
                index += 1
            }
            if code != 0xFF && index < count {
                if out == destination.count { return nil }
                destination[out] = 0
                out += 1
            }
        }
        return out
    }

    /// Array convenience for tests and tools (allocates).
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(maxEncodedCount(bytes.count))
        bytes.withUnsafeBytes { encode($0, appendingTo: &output) }
        return output
    }

    /// Array convenience for tests and tools (allocates). Nil for invalid COBS.
    public static func decode(_ bytes: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: bytes.count)
        let count = bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { decode(source, into: $0) }
        }
        guard let count else { return nil }
        output.removeLast(output.count - count)
        return output
    }
}
