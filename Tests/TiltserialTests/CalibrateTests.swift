import Foundation
import TestSupport
import Testing
import TiltCore
import TiltserialSettings
@testable import BoardEmulator

/// `tiltserial calibrate` end to end: the command in-process on the emulated
/// native board's pty, playing tiltsim's `calibrate` motion, writing into a
/// temporary XDG_CONFIG_HOME; then `run` picks the file up.
@Suite(.serialized) struct CalibrateTests {
    /// A sensor mounted as `mounting` says (board axis i = ± sensor axis): the
    /// base motion's board-frame readings as that sensor reads them.
    struct Remounted: MotionSource {
        var base: Motion
        let mounting: AxisMapping

        mutating func sample(atMicros t: UInt64) -> RawSample {
            var raw = base.sample(atMicros: t)
            func remount(_ board: Axes3<Int16>) -> Axes3<Int16> {
                var sensor = board
                for (source, value) in [(mounting.x, board.x), (mounting.y, board.y), (mounting.z, board.z)] {
                    sensor[source.axis] = source.negated ? Int16(clamping: -Int(value)) : value
                }
                return sensor
            }
            raw.accel = remount(raw.accel)
            raw.gyro = remount(raw.gyro)
            return raw
        }

        /// None: calibration reads the accelerometer, not the DMP.
        func orientation(atMicros t: UInt64) -> Quaternion? { nil }
    }

    /// Fresh XDG folders (config and state) under a temp folder.
    static func environment() -> (environment: [String: String], configFile: String) {
        let root = tempPath("xdg")
        let environment = ["XDG_CONFIG_HOME": root + "/config", "XDG_STATE_HOME": root + "/state", "HOME": root + "/home"]
        return (environment, root + "/config/tiltserial/config.json")
    }

    static func board(_ script: MotionScript, mounted mounting: AxisMapping = .identity, seed: UInt64 = 1,
                      sampleLimit: UInt64? = nil) throws -> NativeBoard {
        let motion = Motion(.script(script), noise: SensorNoise(sampleRate: 1000, seed: seed))
        return try NativeBoard(.init(sampleRateHz: 1000, pace: .freeRunning,
                                     motionSource: Remounted(base: motion, mounting: mounting), sampleLimit: sampleLimit))
    }

    /// Runs `tiltserial ARGS PORT` against `board`, starting the board once the
    /// host waits for it (so the motion's start is seen), until it exits.
    static func run(_ arguments: [String], on board: NativeBoard, environment: [String: String], seconds: Double = 60)
        throws -> (code: Int32?, out: String, err: String) {
        let path = try #require(board.serialPath)
        let host = InProcessHost(arguments + [path], environment: environment)
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("waiting for the board") }, "\(host.captured.err)")
        board.start()
        let code = host.wait(seconds: seconds)
        if code == nil { _ = host.interrupt() }
        return (code, host.captured.out, host.captured.err)
    }

    static func settings(_ file: String) throws -> HostSettings {
        let bytes = try #require(FileManager.default.contents(atPath: file), "no file at \(file)")
        return try SettingsResolver.read(config: Array(bytes), path: file)
    }

    /// A board whose sensor does not answer sends no samples, so no step
    /// could ever end (its 30 s are board time): calibrate stops at once with
    /// the fix, where it waited for good (a tester's, `--sensor-address none`).
    @Test func aBoardWithoutItsSensorEndsCalibrateAtOnce() throws {
        let (environment, file) = Self.environment()
        let link = tempPath("board")
        let board = try PtyPeer(boardAt: link)
        defer { board.close() }
        let host = InProcessHost(["calibrate", link], environment: environment)
        #expect(try board.read { _ in board.hostHellos == 1 })
        try board.send(Stream.hello(status: 2))
        let code = host.wait(seconds: 20)
        if code == nil { _ = host.interrupt() }
        #expect(code == 23, "\(host.captured.err)")
        #expect(host.captured.err.hasSuffix("tiltserial: error: the board's sensor is not answering, so there is nothing to measure: "
                                            + "check its four wires (VCC, GND, SDA, SCL), then run tiltserial calibrate again\n"), "\(host.captured.err)")
        #expect(!FileManager.default.fileExists(atPath: file), "nothing saved")
    }

    @Test func calibrateWritesTheScriptsPoseAndKeepsTheFilesOtherKeys() throws {
        let (environment, file) = Self.environment()
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(#"{"deadZone": 0.08, "axes": "-x,-y,z", "dtr": "leave"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let board = try Self.board(Scenarios.calibrate)
        defer { board.stop() }
        let result = try Self.run(["calibrate"], on: board, environment: environment)
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out == "saved to \(file): rest pose 60° from face-up, level side to side; sensor axes x,y,z\n")
        for step in 1...3 { #expect(result.err.contains("step \(step) of 3: "), "\(result.err)") }
        // The first instruction comes once the board is named, not before its line.
        let named = result.err.range(of: "board: firmware "), first = result.err.range(of: "step 1 of 3: ")
        #expect(named != nil && first != nil && named!.lowerBound < first!.lowerBound, "\(result.err)")
        // The script holds the rest pose 30° back from upright (60° from face-up), level, sensor as the board.
        let settings = try Self.settings(file)
        #expect(settings.axes == .identity)
        #expect(abs(settings.physics.restAngleDegrees - 60) <= 0.2)
        #expect(abs(settings.physics.restRollDegrees) <= 0.2)
        // Its other keys stay, in their order; the measured ones replace or follow them.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text == """
            {
              "deadZone": 0.08,
              "axes": "x,y,z",
              "dtr": "leave",
              "restAngleDegrees": 60,
              "restRollDegrees": 0
            }

            """)
        // No temporary file is left beside it.
        let folder = (file as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["config.json"])
    }

    @Test func aTurnedSensorIsFoundAndTheNextRunScrollsTheRightWay() throws {
        let (environment, file) = Self.environment()
        let mounting = try AxisMapping(parsing: "y,x,-z")  // upside down and turned 90°
        let calibrating = try Self.board(Scenarios.calibrate, mounted: mounting)
        defer { calibrating.stop() }
        let calibrated = try Self.run(["calibrate", "--no-dtr"], on: calibrating, environment: environment)
        #expect(calibrated.code == 0, "\(calibrated.err)")
        #expect(try Self.settings(file).axes == mounting)

        // The run reads the file: tilting right scrolls right, to the edge, and never down.
        let tilting = try Self.board(Scenarios.tiltRight, mounted: mounting, seed: 2)
        defer { tilting.stop() }
        let path = try #require(tilting.serialPath)
        let host = InProcessHost(["run", path, "--no-dtr", "--json"], environment: environment)
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("waiting for the board") })
        tilting.start()
        #expect(host.captured.waitFor(timeout: .seconds(60)) { out, _ in out.contains(#""px":384,"#) }, "never reached the right edge")
        #expect(host.interrupt() == 0)
        #expect(host.captured.err.contains("settings from \(file)"))
        #expect(!host.captured.err.contains("no calibration yet"))
        let ticks = host.captured.out.split(separator: "\n").filter { $0.hasPrefix(#"{"t_us""#) }
        #expect(ticks.count > 10 && ticks.allSatisfy { $0.contains(#""py":0,"#) })

        // Without it the turned sensor's readings go to the wrong axes: it never gets there.
        let unmapped = try Self.board(Scenarios.tiltRight, mounted: mounting, seed: 3, sampleLimit: 9_000)
        defer { unmapped.stop() }
        let plain = InProcessHost(["run", try #require(unmapped.serialPath), "--no-dtr", "--json", "--no-config"], environment: environment)
        #expect(plain.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("waiting for the board") })
        unmapped.start()
        // 9 s of samples: ticks up to about 9 s after the first.
        #expect(plain.captured.waitFor(timeout: .seconds(60)) { out, _ in out.split(separator: "\n").count >= 290 })
        #expect(plain.interrupt() == 0)
        #expect(!plain.captured.out.contains(#""px":384,"#))
        #expect(!plain.captured.err.contains("settings from"))
    }

    @Test func aBoardThatIsNeverTiltedStopsWithCode23AndWritesNothing() throws {
        let (environment, file) = Self.environment()
        let board = try Self.board(Scenarios.rest)
        defer { board.stop() }
        let result = try Self.run(["calibrate", "--no-dtr"], on: board, environment: environment)
        #expect(result.code == 23)
        #expect(result.err.hasSuffix("tiltserial: error: step 2 of 3: the board kept still but was never tilted right (right side down) "
            + "by more than about 15° in 30 s; tilt it further; run tiltserial calibrate again\n"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(result.out.isEmpty)
    }

    @Test func ctrlCStopsWithCode23AndWritesNothing() throws {
        let (environment, file) = Self.environment()
        let board = try NativeBoard(.init(sampleRateHz: 200, pace: .realTime, motionSource: Motion(.script(Scenarios.calibrate))))
        defer { board.stop() }
        let host = InProcessHost(["calibrate", "--no-dtr", try #require(board.serialPath)], environment: environment)
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("waiting for the board") })
        board.start()
        #expect(host.captured.waitFor(timeout: .seconds(20)) { _, err in err.contains("step 1 of 3") })
        #expect(host.interrupt() == 23)
        #expect(host.captured.err.hasSuffix(
            "tiltserial: error: stopped at step 1 of 3, before the calibration finished; nothing was saved\n"), "\(host.captured.err)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func aConfigFileItCannotRewriteStopsItBeforeThePortOpens() throws {
        let (environment, file) = Self.environment()
        let folder = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"{"deadZone": 0.08,, }"#.utf8).write(to: URL(fileURLWithPath: file))
        // The port does not exist: the file is refused first.
        let invalid = runTiltserial(["calibrate", "/dev/nonexistent-port"], environment: environment)
        #expect(invalid.code == 21)
        #expect(invalid.err == "tiltserial: error: \(file):1:19: expected a key in double quotes, found ','; "
            + "fix it or move it away (calibrate keeps its other keys)\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == #"{"deadZone": 0.08,, }"#, "left as it was")

        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)  // unreadable: a folder
        let unreadable = runTiltserial(["calibrate", "/dev/nonexistent-port"], environment: environment)
        #expect(unreadable.code == 21)
        #expect(unreadable.err == "tiltserial: error: \(file): cannot read the config file (Is a directory); check the path\n")

        let nowhere = runTiltserial(["calibrate", "/dev/nonexistent-port"])
        #expect(nowhere.code == 21)
        #expect(nowhere.err == "tiltserial: error: nowhere to save the calibration: HOME and XDG_CONFIG_HOME are unset; give --config FILE\n")
    }
}
