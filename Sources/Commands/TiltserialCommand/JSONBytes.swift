import TiltCore
import TiltPhysics
import TiltPipeline

/// JSON text written as bytes into a buffer that a run keeps: the `--json`
/// tick line without building strings. At 1 kHz the string building was a
/// fifth of the host's CPU (docs/perf/host.md); now a tick line is digits
/// appended to reserved bytes, with no allocation.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256) }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Replaces the buffer's content with `tick`'s line (newline included).
    /// Schema: docs/usage.md.
    mutating func writeTickLine(_ tick: Tick, sequence: UInt8) {
        bytes.removeAll(keepingCapacity: true)
        append("{\"t_us\":"); append(tick.timeMicros)
        append(",\"seq\":"); append(UInt64(sequence))
        // Recipe mode: the integrator's own Float32 values; smooth mode: its Q15.16.
        append(",\"x\":")
        if let recipe = tick.recipeOffsets { append(recipe.x) } else { append(tick.x) }
        append(",\"y\":")
        if let recipe = tick.recipeOffsets { append(recipe.y) } else { append(tick.y) }
        append(",\"px\":"); append(tick.viewportX)
        append(",\"py\":"); append(tick.viewportY)
        append(",\"ribbon\":"); append(tick.stretch)
        append(",\"ribbon_x\":"); append(tick.ribbonX)
        append(",\"ribbon_bottom\":"); append(tick.ribbonBottom)
        append(",\"engaged\":"); append(tick.engaged ? "true" : "false")
        append(",\"fired\":"); append(tick.fired ? "true}\n" : "false}\n")
    }

    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        append(value.magnitude.asUInt64)
    }

    mutating func append(_ value: UInt64) {
        appendDigits(value, minimumCount: 1)
    }

    /// `value`'s decimal digits, zero-padded on the left to `minimumCount`.
    private mutating func appendDigits(_ value: UInt64, minimumCount: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            while count < minimumCount {
                buffer[23 - count] = UInt8(ascii: "0")
                count += 1
            }
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// A Q15.16 value exactly: raw / 2^16 has at most 16 decimals, since
    /// f / 2^16 = f × 5^16 / 10^16; trailing zeros dropped, at least one kept
    /// ("1.0", "0.0000152587890625").
    mutating func append(_ value: Fixed) {
        let raw = Int64(value.raw)
        if raw < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = raw.magnitude
        append(magnitude >> 16)
        bytes.append(UInt8(ascii: "."))
        var fraction = (magnitude & 0xFFFF) * 152_587_890_625  // 5^16: < 10^16
        var count = 16
        while count > 1 && fraction % 10 == 0 {
            fraction /= 10
            count -= 1
        }
        appendDigits(fraction, minimumCount: count)
    }

    /// A Float32 in the shortest decimal that reads back to the same bits
    /// (Swift's `description`; valid JSON, exponents included); null if not finite.
    mutating func append(_ value: Float) {
        guard value.isFinite else { return append("null") }
        var text = value.description  // at most 15 UTF-8 bytes: a small string, not allocated
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
}

private extension UInt {
    var asUInt64: UInt64 { UInt64(self) }
}
