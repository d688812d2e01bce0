import Foundation
import Testing
import TiltExitStatus
import TiltPhysics
import BoardEmulator
@testable import TiltserialCommand

/// The pins file, `tiltserial pins list|clear|remove N`, and the drawer's
/// output of a run (JSON lines, `--on-pin`), driven by a replay of the
/// `drawer` motion.
@Suite struct PinsTests {
    static let items = ["pin", "flag", "star", "home", "heart", "camera", "tent", "fuel"]

    // MARK: The file

    @Test func theFileReadsBackWhatWasWritten() throws {
        let pins = [Pin(item: 2, x: 300, y: 140), Pin(item: 7, x: 0, y: 65_535), Pin(item: 0, x: 12, y: 3)]
        let text = PinsFile.format(pins, items: Self.items)
        #expect(text == """
            {
              "pins": [
                {"item": "star", "x": 300, "y": 140},
                {"item": "fuel", "x": 0, "y": 65535},
                {"item": "pin", "x": 12, "y": 3}
              ]
            }

            """)
        #expect(try PinsFile.parse(Array(text.utf8), items: Self.items) == pins)
        #expect(try PinsFile.parse(Array(PinsFile.format([], items: Self.items).utf8), items: Self.items) == [])
        // Any key order and spacing a person may write.
        let typed = "{\"pins\":[{\"y\":5,\"item\":\"home\",\"x\":6}]}"
        #expect(try PinsFile.parse(Array(typed.utf8), items: Self.items) == [Pin(item: 3, x: 6, y: 5)])
    }

    @Test(arguments: [
        ("", 1, 1, "expected a JSON object, as a pins file is"),
        ("[]", 1, 1, "expected a JSON object, as a pins file is"),
        ("{\"pin\": []}", 1, 2, "expected the key \"pins\""),
        ("{\"pins\": [\n  {\"item\": \"rocket\", \"x\": 1, \"y\": 2}]}", 2, 12, "no item \"rocket\""),
        ("{\"pins\": [{\"item\": \"star\", \"x\": 1}]}", 1, 11, "lacks \"y\""),
        ("{\"pins\": [{\"item\": \"star\", \"x\": -1, \"y\": 2}]}", 1, 33, "whole number from 0 to 65535"),
        ("{\"pins\": [{\"item\": \"star\", \"x\": 65536, \"y\": 2}]}", 1, 33, "whole number from 0 to 65535"),
        ("{\"pins\": [{\"item\": \"star\", \"x\": 1.5, \"y\": 2}]}", 1, 33, "whole number from 0 to 65535"),
        ("{\"pins\": [{\"item\": \"star\", \"x\": 1, \"x\": 2}]}", 1, 36, "\"x\" appears twice"),
        ("{\"pins\": [{\"item\": \"star\", \"x\": 1, \"y\": 2, \"z\": 3}]}", 1, 44, "unknown key \"z\""),
        ("{\"pins\": []} x", 1, 14, "text after the object"),
        ("{\"pins\": [], \"more\": 1}", 1, 12, "the object holds only \"pins\""),
        // An accent is no escape: named as what it is.
        ("{\"pins\": [{\"item\": \"Rakete-é\", \"x\": 1, \"y\": 2}]}", 1, 28, "names are plain ASCII words: no accents or other letters past ASCII"),
        ("{\"pins\": [{\"item\": \"\", \"x\": 1, \"y\": 2}]}", 1, 20, "an empty item name"),
    ] as [(String, Int, Int, String)])
    func badFilesAreRefusedWithTheirPlace(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try PinsFile.parse(Array(text.utf8), items: Self.items)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func theDefaultFileLiesBesideTheConfigFile() throws {
        func path(_ environment: [String: String]) -> String? { PinStore.defaultPath(ConfigPaths(environment: environment)) }
        #expect(path(["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/h"]) == "/x/cfg/tiltserial/pins.json")
        #expect(path(["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/tiltserial/pins.json")
        #expect(path(["HOME": "/h"]) == "/h/.config/tiltserial/pins.json")
        #expect(path([:]) == nil)
        // The pins commands need a file: with no place for one they say so.
        let r = runTiltserial(["pins", "list"])
        #expect(r.code == ExitStatus.badSettings.rawValue && r.err.contains("no place for the pins file"))
    }

    /// A `--pins` file that is not there may be a mistyped name: said so,
    /// not "no pins in FILE"; the default file missing is just none yet.
    @Test func aMissingFileIsSaidAsMissing() throws {
        let path = tempPath("typo.json")
        let named = runTiltserial(["pins", "list", "--pins", path])
        #expect(named.code == 0)
        #expect(named.err == "tiltserial: no pins file at \(path): nothing was saved there "
                + "(check the name; a run with --pins \(path) makes it)\n")
        let remove = runTiltserial(["pins", "remove", "1", "--pins", path])
        #expect(remove.code == ExitStatus.badSettings.rawValue)
        #expect(remove.err.hasSuffix("pins remove 1: no such pin; no pins file at \(path): nothing was saved there "
                + "(check the name; a run with --pins \(path) makes it)\n"), "\(remove.err)")
        let home = tempPath("cfg")
        let byDefault = runTiltserial(["pins", "list"], environment: ["XDG_CONFIG_HOME": home])
        #expect(byDefault.code == 0)
        #expect(byDefault.err == "tiltserial: no pins yet (a run saves them in \(home)/tiltserial/pins.json)\n")
        // A file with none in it says that.
        try PinStore(path: path, items: Self.items).save([])
        #expect(runTiltserial(["pins", "list", "--pins", path]).err == "tiltserial: no pins in \(path)\n")
    }

    @Test func savingIsAtomicAndCreatesTheFolder() throws {
        let dir = tempPath("cfg")
        let store = PinStore(path: dir + "/tiltserial/pins.json", items: Self.items)
        #expect(try store.load() == [], "no file: no pins")
        try store.save([Pin(item: 1, x: 2, y: 3)])
        #expect(try store.load() == [Pin(item: 1, x: 2, y: 3)])
        try store.save([])
        #expect(try store.load() == [])
        // Nothing left behind but the file itself.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/tiltserial") == ["pins.json"])
    }

    @Test func aBadOrOversizedFileIsOneLineWithItsExitCode() throws {
        let path = tempPath("pins.json")
        try Data("{\"pins\": [oops]}".utf8).write(to: URL(fileURLWithPath: path))
        let r = runTiltserial(["pins", "list", "--pins", path])
        #expect(r.code == ExitStatus.badFile.rawValue)
        #expect(r.err == "tiltserial: error: \(path): line 1, column 11: expected a pin like {\"item\": \"star\", \"x\": 300, \"y\": 140}, found 'o'; fix it, or delete it to start afresh\n", "clear would refuse it: not advised")
        let many = (0..<40).map { Pin(item: $0 % 8, x: $0, y: $0) }
        try Data(PinsFile.format(many, items: Self.items).utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: Failure.self) { try PinStore(path: path).load() }
        #expect(try PinStore(path: path).load(bounded: false).count == 40)
        let dir = tempPath("adir")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let d = runTiltserial(["pins", "list", "--pins", dir])
        #expect(d.code == ExitStatus.badFile.rawValue && d.err.contains("is a directory"))
    }

    // MARK: The commands

    @Test func listRemoveAndClear() throws {
        let path = tempPath("pins.json")
        let store = PinStore(path: path)
        try store.save([Pin(item: 2, x: 300, y: 140), Pin(item: 3, x: 10, y: 20), Pin(item: 7, x: 5, y: 6)])
        let list = runTiltserial(["pins", "list", "--pins", path])
        #expect(list.code == 0 && list.out == "1  star  300,140\n2  home  10,20\n3  fuel  5,6\n")
        #expect(runTiltserial(["pins", "--pins", path]).out == list.out, "list is the default")
        let removed = runTiltserial(["pins", "remove", "2", "--pins", path])
        #expect(removed.code == 0 && removed.err.contains("removed pin 2 (home at 10,20); 2 left"))
        #expect(try store.load() == [Pin(item: 2, x: 300, y: 140), Pin(item: 7, x: 5, y: 6)])
        for bad in ["0", "3", "-1"] {  // -1 was taken for an unknown option: "Missing expected argument"
            let r = runTiltserial(["pins", "remove", bad, "--pins", path])
            #expect(r.code == ExitStatus.badSettings.rawValue && r.err == "tiltserial: error: pins remove \(bad): no such pin; give 1 to 2 (see `tiltserial pins list --pins \(path)`)\n", "\(bad): \(r.err)")
        }
        let ended = runTiltserial(["pins", "remove", "--pins", path, "--", "9"])  // `--` ends the options: 9 is the word refused
        #expect(ended.err == "tiltserial: error: pins remove 9: no such pin; give 1 to 2 (see `tiltserial pins list --pins \(path)`)\n", "\(ended.err)")
        let none = runTiltserial(["pins", "remove", "--pins", path])
        #expect(none.code == ExitStatus.badSettings.rawValue && none.err.contains("pins remove needs a pin's number, e.g. tiltserial pins remove 1"), "\(none.err)")
        // A word is no number (it was "no such pin"); one pin left is "give 1", not "1 to 1".
        let word = runTiltserial(["pins", "remove", "x", "--pins", path])
        #expect(word.code == ExitStatus.badSettings.rawValue && word.err.contains("pins remove x: not a pin's number; give 1 to 2"), "\(word.err)")
        try store.save([Pin(item: 2, x: 300, y: 140)])
        let one = runTiltserial(["pins", "remove", "2", "--pins", path])
        #expect(one.err.contains("pins remove 2: no such pin; give 1, the only one (see `tiltserial pins list --pins \(path)`)"), "\(one.err)")
        // Several at once, numbered as listed; a bad one among them removes none.
        try store.save([Pin(item: 2, x: 300, y: 140), Pin(item: 3, x: 10, y: 20), Pin(item: 7, x: 5, y: 6), Pin(item: 1, x: 1, y: 2)])
        let badAmong = runTiltserial(["pins", "remove", "1", "9", "--pins", path])
        #expect(badAmong.code == ExitStatus.badSettings.rawValue && badAmong.err.contains("pins remove 9: no such pin; give 1 to 4"), "\(badAmong.err)")
        #expect(try store.load().count == 4)
        let several = runTiltserial(["pins", "remove", "3", "1", "3", "--pins", path])
        #expect(several.code == 0 && several.err == "tiltserial: removed pins 3 (fuel at 5,6) and 1 (star at 300,140); 2 left\n", "\(several.err)")
        #expect(try store.load() == [Pin(item: 3, x: 10, y: 20), Pin(item: 1, x: 1, y: 2)])
        try store.save([Pin(item: 2, x: 300, y: 140), Pin(item: 7, x: 5, y: 6)])
        let cleared = runTiltserial(["pins", "clear", "--pins", path])
        #expect(cleared.code == 0 && cleared.err.contains("removed 2 pins"))
        #expect(try store.load() == [])
        let empty = runTiltserial(["pins", "list", "--pins", path])
        #expect(empty.code == 0 && empty.out.isEmpty && empty.err.contains("no pins"))
    }

    /// What a bad file's message advises works: a file of a pins file's shape
    /// with an item the drawer lacks is listed, its pin removed, or cleared; anything else (the config file
    /// given as --pins) is left alone; no file is nothing to remove, and no folder is made.
    @Test func clearTakesWhatTheMessageSendsItAndNothingElse() throws {
        let path = tempPath("rocket.json")
        try Data("{\"pins\": [{\"item\": \"rocket\", \"x\": 1, \"y\": 2}, {\"item\": \"star\", \"x\": 3, \"y\": 4}]}".utf8).write(to: URL(fileURLWithPath: path))
        // A run refuses it, naming the pin to remove; list shows it; remove takes it and keeps the rest.
        // The commands advised name the file given with --pins (followed, they edited the default one).
        let run = runTiltserial(["/dev/tiltserial-no-such-port", "--pins", path, "--no-config"])
        #expect(run.code == ExitStatus.badFile.rawValue
                && run.err.hasSuffix("fix it, or remove that pin with `tiltserial pins remove 1 --pins \(path)`, or start afresh with `tiltserial pins clear --pins \(path)`\n"), "\(run.err)")
        let list = runTiltserial(["pins", "list", "--pins", path])
        #expect(list.code == 0 && list.out == "1  rocket  1,2\n2  star  3,4\n", "\(list.err)")
        #expect(list.err == "tiltserial: pin 1 names an item this drawer lacks, so a run refuses the file; remove it: tiltserial pins remove 1 --pins \(path)\n")
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let removed = runTiltserial(["pins", "remove", "2", "--pins", path])
        #expect(removed.code == 0 && removed.err == "tiltserial: removed pin 2 (star at 3,4); 1 left\n", "\(removed.err)")
        #expect(runTiltserial(["pins", "list", "--pins", path]).out == "1  rocket  1,2\n", "the unknown item is kept as it was named")
        try original.write(to: URL(fileURLWithPath: path))
        let cleared = runTiltserial(["pins", "clear", "--pins", path])
        #expect(cleared.code == 0 && cleared.err == "tiltserial: removed 2 pins from \(path)\n", "\(cleared.err)")
        #expect(try PinStore(path: path).load() == [])

        let config = tempPath("config.json")
        let text = "{\"tickMicros\": 30000}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        let refused = runTiltserial(["pins", "clear", "--pins", config])
        #expect(refused.code == ExitStatus.badFile.rawValue && refused.err.contains("not a pins file, so clear leaves it alone"), "\(refused.err)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == text)

        let missing = tempPath("no/such/folder/pins.json")
        let none = runTiltserial(["pins", "clear", "--pins", missing])
        #expect(none.code == 0 && none.err == "tiltserial: \(missing): no pins file; nothing to remove\n", "\(none.err)")
        #expect(!FileManager.default.fileExists(atPath: tempPath("no")), "no folder made")
    }

    // MARK: A run's output

    /// The `drawer` motion as a sample CSV (what the board's sensor felt).
    static func drawerCSV() -> String {
        var motion = Motion(.script(Scenarios.drawer), noise: SensorNoise(sampleRate: 100, seed: 9))
        var csv = "t_us,ax,ay,az\n"
        for k in 0...Int((Scenarios.drawer.duration + 1) * 100) {
            let raw = motion.sample(atMicros: UInt64(k) * 10_000)
            csv += "\(k * 10_000),\(raw.accel.x),\(raw.accel.y),\(raw.accel.z)\n"
        }
        return csv
    }

    @Test func aReplayOfTheDrawerMotionReportsTheDrawerPullOutAndPinAndRunsOnPin() throws {
        let csv = tempPath("drawer.csv"), log = tempPath("pins.log")
        try Data(Self.drawerCSV().utf8).write(to: URL(fileURLWithPath: csv))
        let r = runTiltserial(["replay", csv, "--json",
                               "--on-pin", "sh -c 'echo \"$TILT_ITEM $TILT_PIN_X $TILT_PIN_Y $TILT_T_US\" >> \(log)'"])
        #expect(r.code == 0, "\(r.err)")
        let events = r.out.split(separator: "\n").filter { $0.hasPrefix("{\"event\":\"drawer\"") || $0.hasPrefix("{\"event\":\"pull_out\"") || $0.hasPrefix("{\"event\":\"pin\"") }
        try #require(events.count == 4, "\(events)")
        #expect(events[0].hasPrefix("{\"event\":\"drawer\",\"open\":true,\"t_us\":"))
        #expect(events[1].hasPrefix("{\"event\":\"pull_out\",\"item\":\"home\",\"t_us\":"))
        #expect(events[2].hasPrefix("{\"event\":\"pin\",\"item\":\"home\",\"x\":"))
        #expect(events[3].hasPrefix("{\"event\":\"drawer\",\"open\":false,\"t_us\":"))
        // Each is valid JSON, and the pin's fields go to the hook.
        let pin = try JSONSerialization.jsonObject(with: Data(events[2].utf8)) as! [String: Any]
        let x = pin["x"] as! Int, y = pin["y"] as! Int, t = pin["t_us"] as! Int
        #expect(events[3].hasSuffix("\"t_us\":\(t)}"), "the drawer closes on the drop's tick")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "home \(x) \(y) \(t)\n")
        #expect(r.err.contains("pin: home dropped at \(x),\(y)"))
    }
}
