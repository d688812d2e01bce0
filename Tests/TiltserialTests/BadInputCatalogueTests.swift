import Foundation
import SerialIO
import TestSupport
import Testing
import TiltCore
import WireProtocol

/// Every class of bad input a device, a file or a user can send, one row each:
/// what is given, the exit code, the one line that names the fix, and that
/// nothing valid is lost. docs/usage.md ("Bad input and what tiltserial says")
/// lists the same classes. A row that crashes, hangs or prints more than one
/// error line fails.
@Suite struct BadInputCatalogueTests {
    /// A file-driven case: `make` writes what it needs into `dir` and returns the arguments.
    struct FileCase: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (_ dir: String) throws -> [String]
        let code: Int32
        /// Text the error line (or, for code 0, stderr) must contain.
        let says: [String]
        /// Extra checks on (stdout, stderr).
        var check: @Sendable (_ out: String, _ err: String) -> Void = { _, _ in }
        var testDescription: String { name }
    }

    static func write(_ dir: String, _ name: String, _ bytes: [UInt8]) throws -> String {
        let path = dir + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func write(_ dir: String, _ name: String, _ text: String) throws -> String {
        try write(dir, name, Array(text.utf8))
    }

    /// 2 s of samples at 1 kHz, tilted so the view moves: the valid part of the CSV rows.
    static let csvLines = (0..<2000).map { "\($0 * 1000),6000,3000,-12000" }

    static let fileCases: [FileCase] = [
        // Ports and devices
        FileCase(name: "no such port", make: { _ in ["/dev/tiltserial-no-such-port"] }, code: 10,
                 says: ["no such serial port", "tiltserial list"]),
        FileCase(name: "a dangling link", make: { dir in
            let link = dir + "/board"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/pts/987654")
            return [link]
        }, code: 10, says: ["does not exist", "plug the board in"]),
        FileCase(name: "a regular file as the port", make: { dir in [try write(dir, "plain.txt", "x")] }, code: 14,
                 says: ["not a serial device"]),
        FileCase(name: "a directory as the port", make: { dir in [dir] }, code: 14, says: ["not a serial device"]),

        // Options
        FileCase(name: "an option out of range", make: { _ in ["/dev/null", "--tick-ms", "0"] }, code: 21,
                 says: ["--tick-ms", "between 1 and 1000 ms"]),
        FileCase(name: "an extreme number for an option", make: { _ in ["/dev/null", "--ribbon-center-x=-9223372036854775807"] }, code: 21,
                 says: ["--ribbon-center-x"]),
        FileCase(name: "a hook that cannot run", make: { _ in ["/dev/null", "--on-pull", "/nonexistent/notify"] }, code: 22,
                 says: ["--on-pull"]),
        FileCase(name: "a hook with an unclosed quote", make: { _ in ["/dev/null", "--on-pull", "echo 'hi"] }, code: 21,
                 says: ["unclosed quote"]),

        // Config files
        FileCase(name: "a config value of the wrong JSON type", make: { dir in
            ["/dev/null", "--config", try write(dir, "c.json", #"{"tickMicros":"30000"}"#)]
        }, code: 21, says: ["c.json", "tickMicros"]),
        FileCase(name: "a config bool given as a string", make: { dir in
            ["/dev/null", "--config", try write(dir, "c.json", #"{"reconnect":"false"}"#)]
        }, code: 21, says: ["c.json", "reconnect"]),
        FileCase(name: "a config JSON syntax error", make: { dir in
            ["/dev/null", "--config", try write(dir, "c.json", "{\n  \"tickMicros\": 30000,\n  oops\n}")]
        }, code: 21, says: ["c.json:3:"]),
        FileCase(name: "a config value out of range", make: { dir in
            ["/dev/null", "--config", try write(dir, "c.json", #"{"ribbonCenterX": -9223372036854775807}"#)]
        }, code: 21, says: ["c.json", "ribbonCenterX"]),
        FileCase(name: "a config with a 1 MB string", make: { dir in
            ["/dev/null", "--config", try write(dir, "c.json", "{\"mode\":\"" + String(repeating: "A", count: 1 << 20) + "\"}")]
        }, code: 21, says: ["c.json"], check: { _, err in #expect(err.count < 600, "the error quotes a bounded part: \(err.count) chars") }),
        FileCase(name: "a config file far too large", make: { dir in
            ["/dev/null", "--config", try write(dir, "c.json", [UInt8](repeating: 0x20, count: 11 << 20))]
        }, code: 21, says: ["c.json"]),
        FileCase(name: "both --config and --no-config", make: { dir in
            ["/dev/null", "--no-config", "--config", try write(dir, "c.json", "{}")]
        }, code: 21, says: ["--config and --no-config"]),
        FileCase(name: "a broken config file calibrate would rewrite", make: { dir in
            ["calibrate", "/dev/null", "--config", try write(dir, "c.json", #"{"deadZone": 0.08 "axes": "x,y,z"}"#)]
        }, code: 21, says: ["c.json:1:", "fix it or move it away"], check: { _, err in
            #expect(!err.contains("waiting for the board"), "refused before the port is opened")
        }),

        // Pins files
        FileCase(name: "a pins file that is not one", make: { dir in
            ["/dev/null", "--pins", try write(dir, "pins.json", "{\n  \"pins\": [\n    {\"item\": \"rocket\", \"x\": 1, \"y\": 2}\n  ]\n}\n")]
        }, code: 18, says: ["pins.json", "line 3, column 14", "no item \"rocket\"", "pins clear"]),
        FileCase(name: "a pins file with more pins than the board keeps", make: { dir in
            let pins = (0..<40).map { "{\"item\": \"star\", \"x\": \($0), \"y\": 0}" }.joined(separator: ",")
            return ["/dev/null", "--pins", try write(dir, "pins.json", "{\"pins\": [\(pins)]}")]
        }, code: 18, says: ["pins.json", "40 pins", "at most 32", "pins remove"]),
        FileCase(name: "a pins file far too large", make: { dir in
            ["/dev/null", "--pins", try write(dir, "pins.json", [UInt8](repeating: 0x20, count: 1 << 20))]
        }, code: 18, says: ["pins.json", "too large", "fix it, or delete it to start afresh"]),

        // Replay files
        FileCase(name: "a CSV with Windows line endings", make: { dir in
            ["replay", try write(dir, "s.csv", "t_us,ax,ay,az\r\n" + csvLines.joined(separator: "\r\n") + "\r\n")]
        }, code: 0, says: ["2000 frames", "0 lost"]),
        FileCase(name: "a CSV with a byte-order mark", make: { dir in
            ["replay", try write(dir, "s.csv", [0xEF, 0xBB, 0xBF] + Array(("t_us,ax,ay,az\n" + csvLines.joined(separator: "\n")).utf8))]
        }, code: 0, says: ["2000 frames"]),
        FileCase(name: "a CSV with old Mac line endings", make: { dir in
            ["replay", try write(dir, "s.csv", csvLines.joined(separator: "\r"))]
        }, code: 0, says: ["2000 frames"]),
        FileCase(name: "a CSV time past what the physics takes", make: { dir in
            ["replay", try write(dir, "m.csv", "0,0,0,16384\n18446744073709551615,0,0,16384\n")]
        }, code: 18, says: ["m.csv", "line 2", "t_us"]),
        FileCase(name: "a CSV count out of range", make: { dir in
            ["replay", try write(dir, "m.csv", "0,0,0,16384\n1000,0,40000,16384\n")]
        }, code: 18, says: ["line 2"]),
        FileCase(name: "a CSV line of a megabyte", make: { dir in
            ["replay", try write(dir, "m.csv", "0,0,0,16384\n" + String(repeating: "9", count: 1 << 20) + "\n")]
        }, code: 18, says: ["line 2"], check: { _, err in #expect(err.count < 600, "\(err.count) chars") }),
        FileCase(name: "a truncated recording", make: { dir in ["replay", try write(dir, "x.tiltrec", "TILTR")] }, code: 18,
                 says: ["x.tiltrec"]),
        FileCase(name: "an empty file", make: { dir in ["replay", try write(dir, "empty.tiltrec", [UInt8]())] }, code: 18,
                 says: ["empty.tiltrec"]),
        FileCase(name: "a binary file that is neither", make: { dir in
            ["replay", try write(dir, "noise.bin", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })]
        }, code: 18, says: ["noise.bin"]),
        FileCase(name: "a missing replay file", make: { dir in ["replay", dir + "/nope.csv"] }, code: 18, says: ["nope.csv"]),
    ]

    @Test(arguments: fileCases)
    func eachFileOrOptionClassGetsItsAnswer(_ row: FileCase) throws {
        let dir = tempPath("catalogue")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let arguments = try row.make(dir)
        let r = runTiltserial(arguments, seconds: 30)
        #expect(r.code == row.code, "\(row.name): \(r.err.prefix(300))")
        let errorLines = r.err.split(separator: "\n").filter { $0.hasPrefix("tiltserial: error:") }
        #expect(errorLines.count == (row.code == 0 ? 0 : 1), "\(row.name): one error line, got \(errorLines.count)")
        let said = row.code == 0 ? r.err : errorLines.joined()
        for text in row.says { #expect(said.contains(text), "\(row.name): '\(text)' missing from: \(said.prefix(300))") }
        row.check(r.out, r.err)
    }

    // MARK: - Devices that say the wrong thing

    /// A device on a pty sends `bytes`, then stays silent; the host must give its answer.
    static func device(sending bytes: [UInt8], arguments extra: [String] = []) throws -> (code: Int32?, err: String) {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--hello-timeout", "1500"] + extra)
        #expect(try board.read { _ in board.hostHellos == 1 })
        if !bytes.isEmpty { try board.sendChunked(bytes) }
        let code = host.wait(seconds: 20)
        return (code, host.captured.err)
    }

    @Test func aSilentDeviceNamesTheLikelyCauses() throws {
        let r = try Self.device(sending: [])
        #expect(r.code == 15)
        #expect(r.err.contains("no valid frames within 1.5 s") && r.err.contains("nothing arrived"))
        #expect(r.err.contains("tiltserial: stopped: "), "the summary is printed on this exit too")
    }

    @Test func aFloodOfNoiseIsGivenUpOnEarlyAndSaysSo() throws {
        let noise = (0..<6000).map { UInt8(truncatingIfNeeded: ($0 &* 2654435761) >> 13) | 1 }
        let r = try Self.device(sending: noise)
        #expect(r.code == 15)
        #expect(r.err.contains("no valid frame in the first 2048 bytes") && r.err.contains("binary bytes arrived"))
    }

    @Test func textOfAnUnknownSketchIsNamed() throws {
        let r = try Self.device(sending: Array(String(repeating: "Temperature: 21.5 C\r\n", count: 20).utf8))
        #expect(r.code == 15)
        #expect(r.err.contains("text arrived but not in a known format"))
    }

    @Test func anotherProtocolVersionStopsWithBothVersions() throws {
        let r = try Self.device(sending: Stream.hello(version: WireFormat.version &+ 1))
        #expect(r.code == 12)
        #expect(r.err.contains("protocol version \(WireFormat.version &+ 1)"))
    }

    @Test func aSwappedPairIsCountedNotTakenForAWrap() throws {
        var frames = Stream.samples(0..<600)
        var wire: [UInt8] = []
        var order = Array(0..<600)
        order.swapAt(300, 301)
        for i in order {
            let s = frames.samples[i]
            SampleFrame(sequence: s.sequence, boardTime: UInt32(s.timeMicros), raw: s.raw).encode(into: &wire)
        }
        frames.wire = wire
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--json"])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.sendChunked(Stream.hello() + frames.wire)
        #expect(try board.read { _ in board.offsets.count >= 19 })
        #expect(host.interrupt() == 0)
        let summary = host.captured.err.split(separator: "\n").last { $0.contains("stopped:") } ?? ""
        #expect(summary.contains(" 0 lost"), "\(summary)")
        // 0.6 s of samples make 19 or 20 ticks of 30 ms; a swapped pair read as a wrap made 565 more.
        let ticks = host.captured.out.split(separator: "\n").filter { $0.hasPrefix("{\"t_us\"") }.count
        #expect((19...20).contains(ticks), "\(ticks) ticks")
    }

    /// (Was LiveRunTests.noReconnectExitsWithDeviceGone; now also checks the summary.)
    @Test func withoutReconnectAnUnplugEndsWithItsCodeAndTheSummary() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        let host = InProcessHost(["run", link, "--no-reconnect"])
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.send(Stream.hello() + Stream.samples(0..<100).wire)
        #expect(try board.read { _ in board.offsets.count >= 3 })
        board.close()
        #expect(host.wait() == 17)
        let err = host.captured.err
        #expect(err.components(separatedBy: "device gone").count == 2, "said once, by the error line: \(err)")
        #expect(err.contains("tiltserial: stopped: ") && err.contains(" frames, 0 lost"), "\(err)")
        #expect(err.split(separator: "\n").last?.hasPrefix("tiltserial: error:") == true, "the error line comes last")
    }

    /// A `--record` target that stops taking bytes mid-run (a FIFO whose reader
    /// never reads: like a full disk, the write fails): said at once, in one
    /// line, while the run goes on; the summary says what was not written.
    @Test func aRecordingThatCannotBeWrittenIsReportedWhenItHappens() throws {
        let fifo = tempPath("record.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)  // holds the FIFO open, never reads
        #expect(reader >= 0)
        defer { close(reader) }
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["run", link, "--record", fifo])
        #expect(try board.read { _ in board.hostHellos == 1 })
        // About 100 KB of samples: more than the FIFO's 64 KiB.
        try board.sendChunked(Stream.hello() + Stream.samples(0..<4500).wire)
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("cannot write the recording") },
                "the failure is said while the run goes on")
        #expect(try board.read { _ in board.offsets.count >= 140 }, "the run goes on")
        #expect(host.interrupt() == 0)
        let err = host.captured.err
        #expect(err.components(separatedBy: "cannot write the recording").count == 2, "said once: \(err)")
        #expect(err.contains("records (") && err.contains("bytes) not written"), "\(err)")
    }

    @Test func anotherReaderOfThePortIsNamed() throws {
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        // A non-locking reader (like `cat`) holding the same tty.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, board.pty!.slavePath, O_RDONLY | O_NOCTTY, 0)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup("60"), nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawnp(&pid, "sleep", &actions, nil, argv, environ) == 0)
        defer { kill(pid, SIGKILL); var status: Int32 = 0; waitpid(pid, &status, 0) }
        let host = InProcessHost(["run", link])
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("is also open in sleep (pid \(pid))") })
        #expect(host.interrupt() == 0)
    }
}
