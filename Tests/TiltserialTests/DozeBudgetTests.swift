import SerialIO
import Testing
import TiltPipeline
@testable import TiltserialCommand

/// The doze budget follows what the port's kernel side can hold: a pty (an
/// emulated board) gets the larger one, a real port keeps the tty's half.
@Suite struct DozeBudgetTests {
    @Test func aPseudoTerminalGetsThePtyBudgetByItsLinkOrItsPath() throws {
        let link = tempPath("doze-board")
        let pty = try PseudoTerminal.open(link: link)
        defer { pty.close() }
        for name in [link, pty.slavePath] {
            #expect(HostRunOptions(port: name).driverConfiguration.dozeBufferBytes == HostDriver.Configuration.pseudoTerminalDozeBufferBytes, "\(name)")
        }
    }

    @Test func anyOtherPortKeepsTheDefault() {
        // A character device that is not a terminal, and a port that does not exist.
        for name in ["/dev/null", "/dev/ttyUSB-tiltserial-none"] {
            #expect(HostRunOptions(port: name).driverConfiguration.dozeBufferBytes == HostDriver.Configuration().dozeBufferBytes, "\(name)")
        }
    }
}
