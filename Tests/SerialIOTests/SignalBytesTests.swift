import Foundation
import SerialIO
import TestSupport
import Testing

/// A signal arrives as one byte on the pipe: its number, or the request asked for (stop is 1).
@Suite(.serialized) struct SignalBytesTests {
    @Test func aSignalWritesItsNumberOrTheGivenByte() throws {
        let pipe = try WakeUpPipe()
        let user2 = Signal(rawValue: SIGUSR2)
        defer { SignalBytes.restore([user2]) }
        SignalBytes.install([user2], on: pipe)
        raise(SIGUSR2)
        #expect(pipe.nextByte() == UInt8(SIGUSR2))
        SignalBytes.install([user2], on: pipe, as: .stop)
        raise(SIGUSR2)
        #expect(pipe.nextByte() == 1)
    }
}
