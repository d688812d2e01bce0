import Foundation
import SerialIO
import Testing

/// A signal arrives as one byte on the pipe: its number, or the byte asked for.
@Suite(.serialized) struct SignalBytesTests {
    static func next(_ pipe: WakeUpPipe) -> UInt8? {
        var p = pollfd(fd: pipe.readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 10_000) == 1 else { return nil }
        var byte: UInt8 = 0
        return read(pipe.readEnd.rawValue, &byte, 1) == 1 ? byte : nil
    }

    @Test func aSignalWritesItsNumberOrTheGivenByte() throws {
        let pipe = try WakeUpPipe()
        defer { SignalBytes.restore([SIGUSR2]) }
        SignalBytes.install([SIGUSR2], on: pipe)
        raise(SIGUSR2)
        #expect(Self.next(pipe) == UInt8(SIGUSR2))
        SignalBytes.install([SIGUSR2], on: pipe, byte: 1)
        raise(SIGUSR2)
        #expect(Self.next(pipe) == 1)
    }
}
