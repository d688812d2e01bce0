import Testing
@testable import BoardEmulator

/// What a UART at one baud rate reads from bytes sent at another, exactly.
@Suite struct UARTResamplerTests {
    static func read(_ bytes: [UInt8], from sender: Int, to receiver: Int) -> [UInt8] {
        bytes.withUnsafeBytes { UARTResampler.resample($0, from: sender, to: receiver) }
    }

    static let frame: [UInt8] = [0x00, 0x04, 0x01, 0x55, 0xAA, 0xFF, 0x00, 0x80, 0x7E, 0x31]

    @Test func ratesAUARTBridgesReadTheBytesAsSent() {
        #expect(Self.read(Self.frame, from: 115_200, to: 115_200) == Self.frame)
        #expect(Self.read(Self.frame, from: 117_647, to: 115_200) == Self.frame, "the Uno's UBRR 16 with U2X")
        #expect(Self.read(Self.frame, from: 115_200, to: 117_647) == Self.frame)
        #expect(!UARTResampler.mismatched(117_647, 115_200) && UARTResampler.mismatched(115_200, 9600))
        #expect(UARTResampler.nominal(117_647) == 115_200 && UARTResampler.nominal(38_461) == 38_400 && UARTResampler.nominal(31_250) == 31_250)
    }

    /// Worked by hand: 0xFF at 9600 (start bit, then nine high bits) read at
    /// 19200 takes the start bit's second half for data bit 0: 0xFE, stop bit high.
    /// 0x00 at 9600 read at 19200: every sample low, stop bit low: a framing
    /// error, which a raw tty hands over as 0x00, then the line's rise at the
    /// sent stop bit ends it.
    @Test func aFastReceiverSplitsBitsAndASlowOneMergesBytes() {
        #expect(Self.read([0xFF], from: 9600, to: 19_200) == [0xFE])
        #expect(Self.read([0x00], from: 9600, to: 19_200) == [0x00])
        // A host at 9600 reading a board at 115200: a frame read spans 9.5 of its
        // bits, 114 sent ones, so about one byte read for every 11.4 sent.
        let sent = [UInt8](repeating: 0x55, count: 240) + Self.frame
        let read = Self.read(sent, from: 115_200, to: 9600)
        #expect(read.count <= sent.count * 10 * 9600 * 2 / (115_200 * 19) + 1 && read.count >= sent.count / 12 - 1, "\(read.count) bytes read")
        #expect(Self.read(Self.frame, from: 9600, to: 115_200) != Self.frame, "a board at 115200 reading a host at 9600")
    }
}
