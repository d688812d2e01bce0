import SystemPackage
import Testing
@testable import SerialIO

/// A child's first line (how `tiltserial demo` learns tiltsim's port): the
/// line, or why there is none, so a child that ended at once is not reported
/// as one that kept us waiting for the whole timeout.
@Suite struct FirstLineTests {
    @Test func aLineAWriterThatEndedAndSilenceAreToldApart() throws {
        let (read, write) = try FileDescriptor.pipe()
        defer { try? read.close() }
        _ = try write.writeAll("/dev/pts/7\n".utf8)
        #expect(read.firstLine(timeout: .seconds(5)) == .line("/dev/pts/7"))

        let (quietRead, quietWrite) = try FileDescriptor.pipe()
        defer {
            try? quietRead.close()
            try? quietWrite.close()
        }
        #expect(quietRead.firstLine(timeout: .milliseconds(50)) == .timedOut, "a writer still there and silent")

        _ = try write.writeAll("half a line".utf8)
        try write.close()
        let start = ContinuousClock.now
        #expect(read.firstLine(timeout: .seconds(60)) == .ended, "the writer went before a newline")
        #expect(ContinuousClock.now - start < .seconds(30), "ended at once, not at the timeout")
    }
}
