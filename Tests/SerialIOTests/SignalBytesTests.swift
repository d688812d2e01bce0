import Foundation
import SerialIO
import TestSupport
import Testing

/// A signal arrives as one byte on the pipe: its number, or the byte asked for.
@Suite(.serialized) struct SignalBytesTests {
    @Test func aSignalWritesItsNumberOrTheGivenByte() throws {
        let pipe = try WakeUpPipe()
        defer { SignalBytes.restore([SIGUSR2]) }
        SignalBytes.install([SIGUSR2], on: pipe)
        raise(SIGUSR2)
        #expect(pipe.nextByte() == UInt8(SIGUSR2))
        SignalBytes.install([SIGUSR2], on: pipe, byte: 1)
        raise(SIGUSR2)
        #expect(pipe.nextByte() == 1)
    }
}
