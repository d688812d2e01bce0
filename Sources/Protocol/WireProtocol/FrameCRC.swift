import TiltCore

/// The decoder's hot path: COBS-decodes one run and computes its
/// CRC-16/CCITT-FALSE (same values as `TiltCore.CRC16`) with plain pointers
/// and two bytes per CRC step. docs/perf/decoder.md says why each part is so.
enum FrameCRC {
    /// Four tables of 256: T0 is the usual one-byte table, and T(k+1)[i] is
    /// T(k)[i] advanced by one zero byte: (T(k)[i] << 8) ^ T0[T(k)[i] >> 8].
    /// Built once per process, never freed.
    nonisolated(unsafe) static let tables: UnsafePointer<UInt16> = {
        let tables = UnsafeMutablePointer<UInt16>.allocate(capacity: 1024)
        for index in 0..<256 {
            var crc = UInt16(index) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
            tables[index] = crc
        }
        for table in 1..<4 {
            for index in 0..<256 {
                let previous = tables[(table - 1) * 256 + index]
                tables[table * 256 + index] = (previous << 8) ^ tables[Int(previous >> 8)]
            }
        }
        return UnsafePointer(tables)
    }()

    /// CRC of `count` bytes at `bytes`, from 0xFFFF, four bytes per step
    /// ("slicing by 4"). The CRC is linear over XOR, so feeding b0 b1 b2 b3 to
    /// register c equals feeding x0 = b0 ^ c_hi, x1 = b1 ^ c_lo, x2 = b2,
    /// x3 = b3 to register 0, which is T3[x0] ^ T2[x1] ^ T1[x2] ^ T0[x3]:
    /// four independent lookups instead of a chain of four.
    @inline(__always)
    static func checksum(_ bytes: UnsafePointer<UInt8>, count: Int, tables: UnsafePointer<UInt16>) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        var index = 0
        while index + 4 <= count {
            let x0 = Int(UInt8(truncatingIfNeeded: crc >> 8) ^ bytes[index])
            let x1 = Int(UInt8(truncatingIfNeeded: crc) ^ bytes[index + 1])
            crc = tables[768 + x0] ^ tables[512 + x1] ^ tables[256 + Int(bytes[index + 2])] ^ tables[Int(bytes[index + 3])]
            index += 4
        }
        while index < count {
            crc = (crc << 8) ^ tables[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ bytes[index])]
            index += 1
        }
        return crc
    }

    /// The SAMPLE body's 14-byte burst (big-endian words) at `bytes`.
    @inline(__always)
    static func burst(_ bytes: UnsafePointer<UInt8>) -> RawSample {
        @inline(__always) func word(_ index: Int) -> Int16 {
            Int16(bitPattern: UInt16(bigEndian: UnsafeRawPointer(bytes + 2 * index).loadUnaligned(as: UInt16.self)))
        }
        return RawSample(
            accel: Axes3(x: word(0), y: word(1), z: word(2)), temperature: word(3),
            gyro: Axes3(x: word(4), y: word(5), z: word(6)))
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
