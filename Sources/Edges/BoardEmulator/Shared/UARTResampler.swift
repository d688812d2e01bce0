/// What a UART receiver set to one baud rate reads from bytes sent at another:
/// how a board at 115200 baud looks to a host at 9600, and back. Bits go out
/// 8N1 back to back (start 0, eight data bits LSB first, stop 1; the line idle
/// high before and after); the receiver waits for a falling edge, checks the
/// start bit half a bit later, samples each data bit in its middle at its own
/// rate, and reads a stop bit that is low as a framing error, which a raw
/// Linux tty delivers as 0x00. Integer time (units of 1 / (2 · sender · receiver)
/// s), so the result is exact and the same on every machine.
enum UARTResampler {
    /// Rates closer than this (relative) read each other's bytes as sent: 8N1
    /// samples the stop bit 9.5 bits in, and tolerates about ±4.5 % in all.
    static let tolerance = 0.045

    /// The standard rate a UBRR setting stands for (117 647 baud is the Uno's
    /// 115200), or the rate itself when none is within tolerance.
    static func nominal(_ rate: Int) -> Int {
        let standard = [300, 1200, 2400, 4800, 9600, 14400, 19200, 28800, 38400, 57600, 76800, 115200,
                        230400, 250000, 460800, 500000, 921600, 1000000, 2000000]
        return standard.min { abs($0 - rate) < abs($1 - rate) }.flatMap { mismatched($0, rate) ? nil : $0 } ?? rate
    }

    /// Whether `a` and `b` baud differ by more than a UART tolerates.
    static func mismatched(_ a: Int, _ b: Int) -> Bool {
        guard a > 0, b > 0 else { return false }
        return Double(abs(a - b)) / Double(max(a, b)) > tolerance
    }

    /// The bytes a receiver at `receiverBaud` reads from `bytes` sent at `senderBaud`.
    static func resample(_ bytes: UnsafeRawBufferPointer, from senderBaud: Int, to receiverBaud: Int) -> [UInt8] {
        guard !bytes.isEmpty, senderBaud > 0, receiverBaud > 0 else { return Array(bytes) }
        let sentBit = 2 * receiverBaud, readBit = 2 * senderBaud  // one bit's length on each side, in time units
        let bitCount = bytes.count * 10
        func bit(_ k: Int) -> Int {  // the line level during sent bit k (idle: high)
            guard k >= 0, k < bitCount else { return 1 }
            let (byte, position) = k.quotientAndRemainder(dividingBy: 10)
            switch position {
            case 0: return 0
            case 9: return 1
            default: return Int(bytes[byte] >> UInt8(position - 1)) & 1
            }
        }
        func level(_ time: Int) -> Int { bit(time / sentBit) }
        var out: [UInt8] = []
        var searchFrom = 0  // the receiver looks for a start bit from here on
        var k = 0
        while true {
            // The next falling edge: sent bit k low after bit k - 1 high, at or after `searchFrom`.
            k = max(k, (searchFrom + sentBit - 1) / sentBit)
            while k < bitCount && !(bit(k - 1) == 1 && bit(k) == 0) { k += 1 }
            guard k < bitCount else { break }
            let start = k * sentBit
            guard level(start + readBit / 2) == 0 else {  // a glitch, not a start bit
                searchFrom = start + readBit / 2
                k += 1
                continue
            }
            var value: UInt8 = 0
            for i in 0..<8 where level(start + readBit * (2 * i + 3) / 2) == 1 { value |= 1 << UInt8(i) }
            let stopAt = start + readBit * 19 / 2
            out.append(level(stopAt) == 1 ? value : 0)
            searchFrom = stopAt
            k += 1
        }
        return out
    }
}
