import Foundation
import SerialIO
import TestSupport
import Testing
import TiltCore
import WireProtocol

@Suite(.serialized) struct LiveRunTests {
    @Test func offsetsOverAPtyFollowTheRecipeAndReplayPrintsTheSameJSON() throws {
        let link = tempPath("board")
        let record = tempPath("run.tiltrec")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--json", "--record", record, "--physics", "recipe"])

        #expect(try board.read { _ in board.hostHellos == 1 }, "the host greets the board")
        // The last sample completes the last tick, so that tick's OFFSETS shows every frame was read.
        try board.sendChunked(Stream.hello() + Stream.heldTilt(0..<3001).wire)
        let expected = Stream.recipeOffsets(forHeldTilt: 3001)
        #expect(expected.count == 100)
        #expect(try board.read { _ in board.offsets.count >= expected.count })
        #expect(board.offsets == expected)
        #expect(expected.last?.viewportX == 96, "the motion scrolls: round(0.96 × 100)")

        #expect(host.interrupt() == 0)
        let liveJSON = host.captured.out
        let lines = liveJSON.split(separator: "\n")
        #expect(lines.count == expected.count + 2)
        #expect(lines.first == #"{"event":"format","format":"binary"}"#)
        #expect(lines[1].hasPrefix(#"{"event":"hello","protocol":1,"firmware":"1.0.0","accel_fs_g":2"#))
        #expect(lines[2].hasPrefix(#"{"t_us":31000,"seq":0,"#))
        #expect(host.captured.err.contains("waiting for the board (it resets when the port opens)"))
        #expect(host.captured.err.contains("stopped: "))
        #expect(host.captured.err.contains("3002 frames, 0 lost, 0 errors, 100 ticks"))

        let replay = runTiltserial(["replay", record, "--json", "--physics", "recipe"])
        #expect(replay.code == 0)
        #expect(replay.out == liveJSON)
    }

    @Test func unplugAndReplugKeepsThePhysicsAndReconnects() throws {
        let link = tempPath("board"), record = tempPath("replug.tiltrec")
        var board = try PtyPeer(boardAt: link)
        let host = InProcessHost(["run", link, "--json", "--record", record])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.sendChunked(Stream.hello() + Stream.samples(0..<1500).wire)
        #expect(try board.read { _ in board.offsets.count >= 49 })
        let before = board.offsets
        board.close()  // unplug

        board = try PtyPeer(boardAt: link)  // replug at the same path
        defer { board.close() }
        // The host reopens the port but writes nothing until the board has spoken.
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("reopened; waiting for the board to speak") })
        #expect(try board.read(timeout: .seconds(0.5)) { _ in board.hostHellos > 0 || !board.offsets.isEmpty } == false,
                "nothing is written to a reopened device before it sends a valid frame")
        try board.sendChunked(Stream.hello() + Stream.samples(1500..<3000, start: 700).wire)
        #expect(try board.read { _ in board.hostHellos == 1 }, "once the board spoke, the host greets it")
        #expect(try board.read { _ in board.offsets.count >= 50 })
        // The link restarts (OFFSETS numbered from 0) but the view carries on from where it was.
        #expect(board.offsets.first?.sequence == 0)
        let last = before.last!, next = board.offsets.first!
        #expect(abs(Int(next.viewportX) - Int(last.viewportX)) <= 2)
        #expect(abs(Int(next.viewportY) - Int(last.viewportY)) <= 2)

        #expect(host.interrupt() == 0)
        #expect(host.captured.err.contains("device gone; waiting for it to come back"))
        #expect(host.captured.err.contains("reconnected to the board"))
        // Connection news stays off stdout, so the replay prints the same JSON.
        let replay = runTiltserial(["replay", record, "--json"])
        #expect(replay.code == 0)
        #expect(replay.out == host.captured.out)
        #expect(host.captured.out.components(separatedBy: "\"event\":\"hello\"").count == 3)
    }

    @Test func versionMismatchNamesBothVersions() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.send(Stream.hello(version: 2) + Stream.samples(0..<100).wire)
        #expect(host.wait() == 12)
        #expect(host.captured.err.contains("protocol version 2, this tiltserial version 1; reflash the board from Hardware/"))
        #expect(board.offsets.isEmpty)
    }

    @Test func silenceTextAndNoiseEachGetTheirOwnHint() throws {
        for (bytes, hint) in [([UInt8](), "nothing arrived"),
                              (Array(String(repeating: "Booting... ok\r\n", count: 20).utf8), "text arrived but not in a known format"),
                              ((0..<300).map { UInt8(truncatingIfNeeded: $0 * 73 + 5) | 0x81 }, "binary bytes arrived but no valid frame")] {
            let link = tempPath("board")
            let board = try PtyPeer(boardAt: link)
            defer { board.close() }
            let host = InProcessHost(["run", link, "--hello-timeout", "300"])
            #expect(try board.read { _ in board.hostHellos == 1 })
            if !bytes.isEmpty { try board.send(bytes) }
            #expect(host.wait() == 15)
            #expect(host.captured.err.contains("no valid frames within 0.3 s (--hello-timeout): \(hint)"))
        }
    }

    /// A HELLO that says a part did not answer gets a line naming the fix for
    /// each (the display's got only "display NOT answering").
    @Test func aPartNotAnsweringIsNamedWithItsFix() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.send(Stream.hello(status: 0))
        #expect(host.captured.waitFor(timeout: .seconds(10)) { _, err in err.contains("display is not answering") })
        #expect(host.interrupt() == 0)
        // The bus pins of each board the sketch is built for (a maker with a Mega has them on 20/21, not A4/A5).
        #expect(host.captured.err.contains("the board's sensor is not answering: check its four wires (VCC, GND, SDA, SCL; "
                                           + "SDA/SCL are A4/A5 on an Uno or Nano, 20/21 on a Mega, 2/3 on a Leonardo, Micro or Pro Micro)"))
        #expect(host.captured.err.contains("the board's display is not answering: check its four wires (VCC, GND, SDA, SCL; "
                                           + "SDA/SCL are A4/A5 on an Uno or Nano, 20/21 on a Mega, 2/3 on a Leonardo, Micro or Pro Micro) "
                                           + "and its address (0x3C or 0x3D)"))
    }

    /// A frame of a type this version does not know, with a good CRC (newer
    /// firmware may add types within a protocol version), is skipped and
    /// counted apart: it was an error, and a warning every second blamed the
    /// cable for it.
    @Test func framesOfAnUnknownTypeAreSkippedNotDamage() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--json", "--physics", "recipe"])
        #expect(try board.read { _ in board.hostHellos == 1 })
        var unknown = PingFrame(token: 5).payload.withUnsafeBytes { Array($0) }
        unknown[0] = 0x7E
        let crc = CRC16.checksum(unknown.dropLast(2))
        unknown[unknown.count - 2] = UInt8(crc >> 8)
        unknown[unknown.count - 1] = UInt8(crc & 0xFF)
        let newType = COBS.encode(unknown) + [0x00]
        // 3001 samples at 1 kHz: the last completes the 100th tick, so its OFFSETS shows every byte
        // before it was read (with 3000 the 99th tick came 29 samples early, and a loaded machine's
        // host had not read the rest when it was stopped).
        let samples = Stream.heldTilt(0..<3001).wire
        // 30 of them among the samples (frames end at 0x00: insert after every 100th delimiter).
        var wire = Stream.hello(), delimiters = 0
        for byte in samples {
            wire.append(byte)
            if byte == 0 { delimiters += 1; if delimiters % 100 == 0 { wire += newType } }
        }
        try board.sendChunked(wire)
        #expect(try board.read { _ in board.offsets.count >= 100 })
        #expect(host.interrupt() == 0)
        #expect(!host.captured.err.contains("damaged"), "\(host.captured.err)")
        #expect(host.captured.err.contains("3002 frames, 0 lost, 0 errors, 100 ticks, 0 fires, "
                                           + "30 frames of a type this tiltserial does not know skipped (newer firmware?)"), "\(host.captured.err)")
    }

    /// In the live view the message line is one line: the parts line that
    /// follows HELLO took the place of the missing sensor's fix for the rest
    /// of the run (a tester's Mega, whose pins are not A4/A5). The fix is said
    /// again after it, in words that fit 80 columns with the pins whole.
    @Test func theViewKeepsAMissingSensorsFixAfterThePartsLine() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link], terminal: true, screen: .fixed(columns: 80, rows: 24))
        #expect(try board.read { _ in board.hostHellos == 1 })
        let short = "warning: no sensor: check VCC, GND, SDA/SCL (A4/A5; Mega 20/21; Leonardo 2/3)"
        #expect(short.count <= 80)
        try board.send(Stream.hello(status: 2))
        #expect(host.captured.waitFor(timeout: .seconds(10)) { _, err in err.contains(short) }, "the warning on HELLO")
        let mark = host.captured.err.endIndex
        try board.send(PartsFrame(sensorAddress: 0, sensorWhoAmI: 0, displayAddress: 0x3C).encoded())
        // Three redraws after PARTS: the message line is still the fix, never the parts line.
        #expect(host.captured.waitFor(timeout: .seconds(10)) { _, err in
            err[mark...].components(separatedBy: "samples 0").count > 3
        })
        let after = host.captured.err[mark...]
        #expect(!after.contains("board: no sensor") && after.contains(short), "\(after.suffix(400))")
        #expect(host.interrupt() == 0)
    }

    @Test func i2cdevlibTextIsDetectedAndSaidSo() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--json"])
        #expect(try board.read { _ in board.hostHellos == 1 })
        var text = "Initializing I2C devices...\r\n"
        for i in 0..<50 { let r = Stream.raw(i); text += "a/g:\t\(r.accel.x)\t\(r.accel.y)\t\(r.accel.z)\t1\t2\t3\r\n" }
        try board.send(Array(text.utf8))
        // Text carries no board time (ticks depend on arrival times): wait for the detection itself.
        #expect(host.captured.waitFor(timeout: .seconds(10)) { out, _ in out.contains("i2cdevlib") })
        #expect(host.interrupt() == 0)
        #expect(host.captured.out.hasPrefix(#"{"event":"format","format":"i2cdevlib"}"#))
        #expect(host.captured.err.contains("format: i2cdevlib MPU6050_raw text"))
    }
}
