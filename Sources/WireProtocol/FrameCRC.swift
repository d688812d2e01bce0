/// The decoder's hot path: COBS-decodes one run and computes its
/// CRC-16/CCITT-FALSE (same values as `TiltCore.CRC16`) with plain pointers
/// and two bytes per CRC step. docs/perf/decoder.md says why each part is so.
enum FrameCRC {
    /// T0: the usual one-byte table; T1[i] = T0 advanced by one more byte:
    /// (T0[i] << 8) ^ T0[T0[i] >> 8]. Built once per process, never freed.
    nonisolated(unsafe) static let tables: UnsafePointer<UInt16> = {
        let tables = UnsafeMutablePointer<UInt16>.allocate(capacity: 512)
        for index in 0..<256 {
            var crc = UInt16(index) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
            tables[index] = crc
        }
        for index in 0..<256 {
            let t0 = tables[index]
            tables[256 + index] = (t0 << 8) ^ tables[Int(t0 >> 8)]
        }
        return UnsafePointer(tables)
    }()

    /// CRC of `count` bytes at `bytes`, from 0xFFFF. The table is linear over
    /// XOR, so two input bytes fold into one step of two independent lookups:
    /// crc' = T1[(crc >> 8) ^ b0] ^ T0[(crc & 0xFF) ^ b1].
    @inline(__always)
    static func checksum(_ bytes: UnsafePointer<UInt8>, count: Int, tables: UnsafePointer<UInt16>) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        var index = 0
        while index + 1 < count {
            let high = Int(UInt8(truncatingIfNeeded: crc >> 8) ^ bytes[index])
            let low = Int(UInt8(truncatingIfNeeded: crc) ^ bytes[index + 1])
            crc = tables[256 + high] ^ tables[low]
            index += 2
        }
        if index < count {
            crc = (crc << 8) ^ tables[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ bytes[index])]
        }
        return crc
    }

    /// COBS-decodes one run (no 0x00 inside, 1...65 bytes) into `payload`
    /// (room for 64). Returns the payload count (run count − 1), or -1 when a
    /// code points past the run's end.
    ///
    /// In a run this short no block can reach 254 bytes, so every code but the
    /// last stands for exactly one 0x00: the payload is the run without its
    /// first byte, with a 0x00 wherever a later code byte sits. (A 0xFF code
    /// would claim 254 bytes and fails the end check.)
    @inline(__always)
    static func decode(_ run: UnsafePointer<UInt8>, count: Int, into payload: UnsafeMutablePointer<UInt8>) -> Int {
        payload.update(from: run + 1, count: count - 1)
        var code = 0
        while true {
            let next = code + Int(run[code])
            if next >= count { return next == count ? count - 1 : -1 }
            payload[next - 1] = 0
            code = next
        }
    }
}
