import Foundation
import SerialIO
import TestSupport
import Testing
import TiltCore
import WireProtocol

/// `tiltserial monitor`: over a real pty with bytes written by hand, and
/// against the `tiltsim` executable's native board.
@Suite(.serialized) struct MonitorTests {
    /// Waits until the monitor has opened (and flushed) the port.
    func opened(_ host: InProcessHost, _ link: String) -> Bool {
        host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("monitor: \(link) at 115200 baud") }
    }

    @Test func textFramesAndOtherBytesEachGetTheirLine() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["monitor", link])
        #expect(opened(host, link))
        let sample = SampleFrame(sequence: 12, boardTime: 1_012_000, raw: RawSample(
            accel: Axes3(x: -120, y: 8012, z: 14100), temperature: -1520, gyro: Axes3(x: 3, y: -4, z: 1)))
        try board.send(Array("Booting... ok\r\n".utf8) + Stream.hello() + sample.encoded() + [0x8F, 0x13, 0xFE, 0x00]
                       + Array("done\n".utf8))
        let expected = """
            Booting... ok
            HELLO protocol=1 firmware=1.0.0 accel=±2g gyro=±250dps rate=1000Hz display=128x64 \
            tile=0x\(String(Stream.tileID, radix: 16, uppercase: true)) sensor=ok display=ok
            SAMPLE seq=12 t=1012000 ax=-120 ay=8012 az=14100 temp=-1520 gx=3 gy=-4 gz=1
            HEX 8f 13 fe 00
            done

            """
        #expect(host.captured.waitFor(timeout: .seconds(20)) { out, _ in out == expected }, "\(host.captured.out)")
        #expect(host.interrupt() == 0)
        #expect(host.captured.out == expected)
        #expect(board.frames.isEmpty, "a monitor only listens unless asked to --hello")
    }

    @Test func aLineLeftUnfinishedIsShownOnceTheBoardGoesQuiet() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["monitor", link])
        #expect(opened(host, link))
        try board.send(Array("Initializing I2C devices...".utf8))
        #expect(host.captured.waitFor(timeout: .seconds(20)) { out, _ in out == "Initializing I2C devices...\n" })
        #expect(host.interrupt() == 0)
    }

    @Test func helloAsksTheBoardAndAnUnplugEndsWithCode17() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        let host = InProcessHost(["monitor", "--port", link, "--hello", "--baud", "57600"])
        #expect(try board.read { _ in board.hostHellos == 1 }, "--hello sends HOST_HELLO")
        board.close()
        #expect(host.wait(seconds: 20) == 17)
        #expect(host.captured.err.hasSuffix("tiltserial: error: \(link): device gone (unplugged or closed); plug it in and start the monitor again\n"))
    }

    @Test func badSerialOptionsAreRefusedLikeRunRefusesThem() {
        let r = runTiltserial(["monitor", "/dev/null", "--baud", "12"])
        #expect(r.code == 21)
        #expect(r.err == "tiltserial: error: --baud: '12' is not valid; it must be a whole number between 50 and 4000000 baud\n")
        let missing = runTiltserial(["monitor", "/dev/tiltserial-no-such-port"])
        #expect(missing.code == 10)
    }

    /// The `tiltsim` executable (built beside the tests) serving its native board.
    @Test func showsTheEmulatedBoardFromTiltsim() throws {
        let tiltsim = Process()
        tiltsim.executableURL = Bundle.main.bundleURL.appendingPathComponent("tiltsim")
        let link = tempPath("sim")
        tiltsim.arguments = ["--engine", "native", "--rate", "200", "--motion", "tour", "--link", link, "--duration", "60", "--run-now"]  // talking before the monitor comes
        let out = Pipe()
        tiltsim.standardOutput = out
        tiltsim.standardError = FileHandle.nullDevice
        try tiltsim.run()
        defer {
            // SIGKILL: a child of the test runner inherits its blocked SIGTERM.
            kill(tiltsim.processIdentifier, SIGKILL)
            tiltsim.waitUntilExit()
        }
        // tiltsim prints its pty's path once the board is up.
        let path = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        #expect(path.hasPrefix("/dev/pts/"))

        let host = InProcessHost(["monitor", link, "--hello"])
        #expect(host.captured.waitFor(timeout: .seconds(30)) { out, _ in out.components(separatedBy: "SAMPLE seq=").count > 50 },
                "\(host.captured.err)")
        #expect(host.interrupt() == 0)
        // The board was talking before the monitor came, and the monitor's open
        // reset it, as an Uno's DTR does: nothing from before, its boot HELLO
        // first. --hello's answer is a second HELLO; each restarts the sequence.
        // Ctrl-C may cut the last line short.
        let lines = host.captured.out.split(separator: "\n").dropLast()
        #expect(lines.first?.hasPrefix("HELLO protocol=1 firmware=1.0.0 accel=±2g gyro=±250dps rate=200Hz display=128x64") == true,
                "\(lines.prefix(3))")
        #expect(lines.allSatisfy { $0.hasPrefix("SAMPLE seq=") || $0.hasPrefix("HELLO ") }, "\(lines.filter { !$0.hasPrefix("SAMPLE") })")
        let firstAfterHello = zip(lines, lines.dropFirst()).filter { $0.0.hasPrefix("HELLO ") && $0.1.hasPrefix("SAMPLE") }.map(\.1)
        #expect(!firstAfterHello.isEmpty && firstAfterHello.allSatisfy { $0.hasPrefix("SAMPLE seq=0 t=") },
                "sequence numbers restart after HELLO: \(firstAfterHello)")
        #expect(lines.filter { $0.hasPrefix("SAMPLE seq=") }.count > 40)
    }
}
