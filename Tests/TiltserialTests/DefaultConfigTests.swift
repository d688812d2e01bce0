import Foundation
import Testing
@testable import TiltserialSettings
@testable import TiltserialCommand

/// The default config file (where it is, who reads it, what wins), the
/// one-time notice, `--no-config`, and the words `default` and `none`.
@Suite struct DefaultConfigTests {
    static func environment() -> (environment: [String: String], configFile: String, marker: String) {
        let root = tempPath("xdg")
        return (["XDG_CONFIG_HOME": root + "/config", "XDG_STATE_HOME": root + "/state", "HOME": root + "/home"],
                root + "/config/tiltserial/config.json", root + "/state/tiltserial/calibration-notice-shown")
    }

    static func write(_ text: String, to file: String) throws {
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    }

    @Test func theDefaultFileFollowsTheXDGRules() {
        #expect(ConfigPaths(environment: ["XDG_CONFIG_HOME": "/x/conf", "HOME": "/home/a"]).configFile == "/x/conf/tiltserial/config.json")
        #expect(ConfigPaths(environment: ["XDG_CONFIG_HOME": "/x/conf/", "HOME": "/home/a"]).configFile == "/x/conf/tiltserial/config.json")
        #expect(ConfigPaths(environment: ["HOME": "/home/a"]).configFile == "/home/a/.config/tiltserial/config.json")
        // Empty or relative values are ignored, as the specification says.
        #expect(ConfigPaths(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/a"]).configFile == "/home/a/.config/tiltserial/config.json")
        #expect(ConfigPaths(environment: ["XDG_CONFIG_HOME": "conf", "HOME": "/home/a"]).configFile == "/home/a/.config/tiltserial/config.json")
        #expect(ConfigPaths(environment: [:]).configFile == nil)
        #expect(ConfigPaths(environment: ["HOME": "/"]).configFile == "/.config/tiltserial/config.json")
        #expect(ConfigPaths(environment: ["HOME": "/home/a"]).noticeMarker == "/home/a/.local/state/tiltserial/calibration-notice-shown")
        #expect(ConfigPaths(environment: ["XDG_STATE_HOME": "/s", "HOME": "/home/a"]).noticeMarker == "/s/tiltserial/calibration-notice-shown")
    }

    /// A default file that cannot be read names --no-config; one that cannot
    /// exist (a folder on its way is a file: XDG_CONFIG_HOME=/dev/null) is none.
    @Test func aDefaultFileInTheWayNamesNoConfigAndAnImpossibleOneIsNone() throws {
        let (environment, configFile, _) = Self.environment()
        try FileManager.default.createDirectory(atPath: configFile, withIntermediateDirectories: true)
        let folder = runTiltserial(["/dev/null"], environment: environment)
        #expect(folder.code == 21)
        #expect(folder.err.hasSuffix("tiltserial: error: \(configFile): cannot read the config file (Is a directory); check the path (or run with --no-config)\n"), "\(folder.err)")
        var impossible = environment
        impossible["XDG_CONFIG_HOME"] = "/dev/null"
        let none = runTiltserial(["/dev/null"], environment: impossible)
        #expect(none.code == 14, "the run goes on to the port: \(none.err)")
        #expect(!none.err.contains("config file"), "\(none.err)")
    }

    @Test func withoutACalibrationTheFirstRunSaysSoOnce() throws {
        let (environment, _, marker) = Self.environment()
        // /dev/null is no serial port: the run stops after the settings, which is all this needs.
        let first = runTiltserial(["/dev/null"], environment: environment)
        #expect(first.code == 14)
        #expect(first.err.hasPrefix("tiltserial: no calibration yet: the rest pose is 60° from face-up (held as you would to look at it; "
            + "a board lying flat scrolls away) and the sensor's axes are x,y,z; run `tiltserial calibrate` to measure yours (this note shows once)\n"),
            "\(first.err)")
        #expect(FileManager.default.fileExists(atPath: marker))
        let second = runTiltserial(["/dev/null"], environment: environment)
        #expect(second.code == 14)
        #expect(!second.err.contains("calibrat"), "\(second.err)")
        // It speaks of the pose the run uses.
        try FileManager.default.removeItem(atPath: marker)
        let other = runTiltserial(["/dev/null", "--rest-angle", "45", "--axes=-y,x,z"], environment: environment)
        #expect(other.err.contains("the rest pose is 45° from face-up (held as you would to look at it; a board lying flat scrolls away) "
            + "and the sensor's axes are -y,x,z;"))
    }

    @Test func runReadsTheDefaultFileUnlessToldOtherwise() throws {
        let (environment, file, marker) = Self.environment()
        try Self.write(#"{"restAngleDegrees": 40, "axes": "-y,x,z", "tickMicros": 20000}"#, to: file)
        let run = runTiltserial(["/dev/null"], environment: environment)
        #expect(run.code == 14)
        #expect(run.err.hasPrefix("tiltserial: settings from \(file)\n"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: marker), "no notice with a calibration")

        let none = runTiltserial(["/dev/null", "--no-config"], environment: environment)
        #expect(!none.err.contains("settings from") && !none.err.contains("no calibration"), "\(none.err)")

        let both = runTiltserial(["/dev/null", "--no-config", "--config", file], environment: environment)
        #expect(both.code == 21)
        #expect(both.err == "tiltserial: error: --config and --no-config contradict each other; give one of them\n")

        try Self.write(#"{"restAngleDegrees": 400}"#, to: file)
        let broken = runTiltserial(["/dev/null"], environment: environment)
        #expect(broken.code == 21)
        #expect(broken.err == "tiltserial: error: \(file): key 'restAngleDegrees': '400' is not valid; "
            + "it must be a number between -90 and 90 degrees (or run with --no-config)\n")
        // An option that replaces the bad value is fine, as for any config file.
        let replaced = runTiltserial(["/dev/null", "--rest-angle", "default"], environment: environment)
        #expect(replaced.code == 14, "\(replaced.err)")
    }

    @Test func theFileTheOptionsAndTheirOrderOfPrecedence() throws {
        let (environment, file, _) = Self.environment()
        try Self.write(#"{"tickMicros": 20000, "ribbonCenterX": 100, "axes": "-y,x,z"}"#, to: file)
        let paths = ConfigPaths(environment: environment)
        func resolve(_ arguments: [String]) throws -> (HostSettings, ConfigUse) {
            let options = try SettingsOptions.parse(arguments)
            return try Result { () throws(Failure) in try options.resolve(defaultFile: paths.configFile) }.get()
        }
        let (fromFile, use) = try resolve([])
        #expect(use == .defaultFile(file))
        #expect(fromFile.physics.tickMicros == 20_000 && fromFile.physics.ribbonCenterX == 100 && fromFile.axes.description == "-y,x,z")
        // Options win; `default` and `none` set the default back.
        let (reset, _) = try resolve(["--tick-ms", "default", "--ribbon-center-x", "none", "--axes", "default"])
        #expect(reset.physics.tickMicros == 30_000 && reset.physics.ribbonCenterX == nil && reset.axes == .identity)
        let (given, _) = try resolve(["--tick-ms", "10"])
        #expect(given.physics.tickMicros == 10_000 && given.physics.ribbonCenterX == 100)
        let (none, noneUse) = try resolve(["--no-config"])
        #expect(none == HostSettings() && noneUse == .none)
        // `demo` reads no default file.
        let plain = try SettingsOptions.parse([])
        let demo = try Result { () throws(Failure) in try plain.resolve() }.get()
        #expect(demo.settings == HostSettings() && demo.config == .none)
        try FileManager.default.removeItem(atPath: file)
        #expect(try resolve([]).1 == .defaultMissing(file))
    }

    @Test func replayReadsTheDefaultFileToo() throws {
        let (environment, file, _) = Self.environment()
        let csv = tempPath("tilt.csv")
        var rows = "t_us,ax,ay,az\n"
        for i in 0..<2000 { rows += "\(i * 1000),-8000,14000,8000\n" }
        try Data(rows.utf8).write(to: URL(fileURLWithPath: csv))
        let plain = runTiltserial(["replay", csv, "--json"], environment: environment)
        #expect(plain.code == 0)
        try Self.write(#"{"axes": "-x,y,z"}"#, to: file)
        let configured = runTiltserial(["replay", csv, "--json"], environment: environment)
        #expect(configured.code == 0)
        #expect(configured.err.hasPrefix("tiltserial: settings from \(file)\n"))
        #expect(configured.out != plain.out, "the mirrored x axis scrolls the other way")
        let unconfigured = runTiltserial(["replay", csv, "--json", "--no-config"], environment: environment)
        #expect(unconfigured.out == plain.out)
    }

    /// A config FIFO nobody writes to is said at once (its open waited for a
    /// writer in silence, a tester's); one with its writer waiting is read.
    @Test func aConfigFIFONobodyWritesToIsSaid() throws {
        let csv = tempPath("flat.csv"), fifo = tempPath("config.fifo")
        try Data("t_us,ax,ay,az\n0,0,0,16384\n1000,0,0,16384\n".utf8).write(to: URL(fileURLWithPath: csv))
        #expect(mkfifo(fifo, 0o600) == 0)
        let alone = runTiltserial(["replay", csv, "--config", fifo], seconds: 20)
        #expect(alone.code == 21 && alone.err == "tiltserial: error: \(fifo): a FIFO nobody writes to; start the program that writes it first, "
                + "or name a file\n", "\(String(describing: alone.code)): \(alone.err)")
        // A writer already waiting (`echo '{…}' > fifo &`): its open completes with ours.
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(#"{"axes": "-x,y,z"}"#.utf8))
            try? handle.close()
        }
        writer.start()
        let fed = runTiltserial(["replay", csv, "--config", fifo], seconds: 20)
        #expect(fed.code == 0 && fed.err.contains("replayed: "), "\(fed.err)")
    }

    @Test func theMergedFileKeepsWhatItDoesNotSet() throws {
        let existing = Array(#"{"b": 1}"#.utf8)
        #expect(throws: SettingsError.self) { try ConfigMerge.merged(existing, path: "c.json", setting: []) }
        let file = Array("""
            {"wiggleStartsMicros": [1000000, 2000000], "dtr": "le\\u0061ve", "ribbonCenterX": null,
             "deadZone": 1e-2, "axes": "x,y,z"}
            """.utf8)
        let merged = try ConfigMerge.merged(file, path: "c.json", setting: [("axes", .text("-y,x,z")), ("restAngleDegrees", .number(52.4))])
        #expect(String(decoding: merged, as: UTF8.self) == """
            {
              "wiggleStartsMicros": [1000000, 2000000],
              "dtr": "leave",
              "ribbonCenterX": null,
              "deadZone": 1e-2,
              "axes": "-y,x,z",
              "restAngleDegrees": 52.4
            }

            """)
        #expect(String(decoding: try ConfigMerge.merged(nil, path: "c.json", setting: []), as: UTF8.self) == "{}\n")
        #expect(ConfigMerge.string("a\"b\\c\u{1}\n") == #""a\"b\\c\u0001\n""#)
    }
}
