import Foundation
import Testing
import TiltCore
import TiltPhysics
import TiltserialSettings
@testable import TiltserialCommand
import TiltPipeline

/// Issue 10: every setting has a range, checked from options and config files
/// alike; config files refuse the wrong JSON type, duplicates, nesting and
/// bad syntax with one line naming the file (and line, column or key).
@Suite struct SettingsConfigTests {
    static func config(_ name: String, _ text: String) throws -> String {
        let path = tempPath(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func read(_ text: String) -> Result<HostSettings, SettingsError> {
        Result { () throws(SettingsError) in try SettingsResolver.read(config: Array(text.utf8), path: "c.json") }
    }

    static func error(_ text: String) -> String? {
        if case .failure(let e) = read(text) { e.message } else { nil }
    }

    @Test func anExtremeRibbonCentreIsRefusedNotATrap() throws {
        let r1 = runTiltserial(["/dev/null", "--ribbon-center-x=-9223372036854775807"])
        #expect(r1.code == 21)
        #expect(r1.err == "tiltserial: error: --ribbon-center-x: '-9223372036854775807' is not valid; it must be a whole number between 0 and 65535 px, or none\n")
        let path = try Self.config("centre.json", #"{"ribbonCenterX": -9223372036854775807}"#)
        let r2 = runTiltserial(["/dev/null", "--config", path])
        #expect(r2.code == 21)
        #expect(r2.err == "tiltserial: error: \(path): key 'ribbonCenterX': '-9223372036854775807' is not valid; it must be a whole number between 0 and 65535 px, or null for the default\n")
    }

    @Test func messagesSpeakTheUnitOfWhereTheValueCameFrom() throws {
        let r1 = runTiltserial(["/dev/null", "--hello-timeout", "0"])
        #expect(r1.code == 21)
        #expect(r1.err == "tiltserial: error: --hello-timeout: '0' is not valid; it must be a number between 1 and 3600000 ms\n")
        #expect(Self.error(#"{"helloTimeoutMicros": 0}"#)
            == "c.json: key 'helloTimeoutMicros': '0' is not valid; it must be a whole number between 1000 and 3600000000 µs")
        #expect(Self.error(#"{"baud": 99999999999999999999999}"#)
            == "c.json: key 'baud': '99999999999999999999999' is not valid; it must be a whole number between 50 and 4000000 baud")
        #expect(Self.error(#"{"wiggleStartsMicros": [1, 2, 3, 4]}"#)
            == "c.json: key 'wiggleStartsMicros': '[1,2,3,4]' is not valid; it must be an array of at most 3 whole numbers between 0 and 3600000000 µs")
        let r2 = runTiltserial(["/dev/null", "--wiggle-starts-ms", "1,x"])
        #expect(r2.err == "tiltserial: error: --wiggle-starts-ms: '1,x' is not valid; it must be at most 3 numbers between 0 and 3600000 ms, separated by commas\n")
    }

    @Test func crossChecksNameBothSettingsAndWhereTheyCameFrom() throws {
        let r = runTiltserial(["/dev/null", "--base-gain", "0.1"])
        #expect(r.code == 21)
        #expect(r.err == "tiltserial: error: gainCap (0.015, the default) must be at least baseGain ('0.1' from --base-gain); change one of them\n")
    }

    @Test func aValueOfTheWrongJSONTypeNamesFileKeyAndType() throws {
        #expect(Self.error(#"{"tickMicros":"30000"}"#) == "c.json: key 'tickMicros' must be an integer, not the string '30000'")
        #expect(Self.error(#"{"reconnect":"false"}"#) == "c.json: key 'reconnect' must be true or false, not the string 'false'")
        #expect(Self.error(#"{"axes":["x","y","z"]}"#) == #"c.json: key 'axes' must be a string like "x,-y,z", not an array holding the string 'x'"#)
        #expect(Self.error(#"{"tickMicros": 30000.5}"#) == "c.json: key 'tickMicros' must be an integer, not the number '30000.5'")
        #expect(Self.error(#"{"wiggleStartsMicros": [1, 2.5]}"#)
            == "c.json: key 'wiggleStartsMicros' must be an array of integers, not an array holding the number '2.5'")
        #expect(Self.error(#"{"baud": null}"#) == "c.json: key 'baud' must be an integer, not null")
        #expect(Self.error(#"{"mode": 1}"#) == "c.json: key 'mode' must be a string: recipe or smooth, not the number '1'")
        // Through the command: exit 21 and the file's path.
        let path = try Self.config("types.json", #"{"reconnect":"false"}"#)
        let r = runTiltserial(["/dev/null", "--config", path])
        #expect(r.code == 21)
        #expect(r.err == "tiltserial: error: \(path): key 'reconnect' must be true or false, not the string 'false'\n")
    }

    @Test func theRightTypesAreTaken() throws {
        let s = try Self.read(#"""
            {"mode": "recipe", "tickMicros": 20000, "deadZone": 0.08, "yScale": 3, "ribbonCenterX": null,
             "wiggleStartsMicros": [4000000, 8000000], "axes": "x,-y,-z", "baud": 38400, "dtr": "leave",
             "reconnect": false, "helloTimeoutMicros": 1500000}
            """#).get()
        #expect(s.physics.mode == .recipe && s.physics.tickMicros == 20_000 && s.physics.deadZone == 0.08)
        #expect(s.physics.yScale == 3 && s.physics.ribbonCenterX == nil && s.physics.wiggleStartsMicros == [4_000_000, 8_000_000])
        #expect(s.axes.description == "x,-y,-z" && s.baud == 38_400 && s.dtr == .leave && !s.reconnect)
        #expect(s.helloTimeoutMicros == 1_500_000)
        #expect(try Self.read("\u{FEFF} {\n}\n").get() == HostSettings())
    }

    @Test func syntaxErrorsSayLineAndColumn() {
        #expect(Self.error("{\n  \"tickMicros\": 30000\n  \"mode\": \"smooth\"\n}")
            == "c.json:3:3: expected ',' or '}' after the value of 'tickMicros', found a string")
        #expect(Self.error("{\"mode\": \"sm\u{00F6}oth,}") == "c.json:1:19: a string runs to the end of the file; close it with '\"'")
        #expect(Self.error("{\"deadZone\": 01}") == "c.json:1:15: a number with a leading zero; write it without")
        #expect(Self.error("{\"reconnect\": True}") == "c.json:1:15: expected a value for 'reconnect', found 'T'")
        #expect(Self.error("") == "c.json:1:1: the file is empty; write a JSON object like {\"tickMicros\": 30000}")
        #expect(Self.error("{} {}") == "c.json:1:4: unexpected '{' after the object's closing '}'")
    }

    @Test func topLevelDuplicatesAndNestingAreRefused() {
        #expect(Self.error("[1, 2]") == "c.json:1:1: the top level must be a JSON object like {\"tickMicros\": 30000}, not an array")
        #expect(Self.error("{\"tickMicros\": 30000,\n \"tickMicros\": 20000}")
            == "c.json:2:2: key 'tickMicros' appears twice (first on line 1); keep one")
        #expect(Self.error("{\"axes\": {\"x\": \"y\"}}")
            == "c.json:1:10: the value of 'axes' is an object; settings are flat: numbers, strings, true/false, null or arrays of numbers")
        #expect(Self.error("{\"wiggleStartsMicros\": [[1]]}") == "c.json:1:25: an array inside the array of 'wiggleStartsMicros'; it takes plain values")
        #expect(Self.error("{\"tickMilliseconds\": 5}")?.hasPrefix("c.json: unknown key 'tickMilliseconds'; known keys: mode, tickMicros,") == true)
    }

    @Test func hugeValuesAreQuotedShort() throws {
        let long = String(repeating: "x", count: 50_000)
        let e1 = try #require(Self.error("{\"axes\": \"\(long)\"}"))
        #expect(e1 == "c.json: key 'axes': '\(String(repeating: "x", count: 40))…' is not valid; it must be three axes like x,y,z or -y,x,z")
        let e2 = try #require(Self.error("{\"\(long)\": 1}"))
        #expect(e2.count < 600 && !e2.contains("\n"))
        let r = runTiltserial(["/dev/null", "--axes", String(repeating: "y", count: 100_000) + "\n"])
        #expect(r.code == 21)
        #expect(r.err == "tiltserial: error: --axes: '\(String(repeating: "y", count: 40))…' is not valid; it must be three axes like x,y,z or -y,x,z\n")
        #expect(quoted("a\nb\u{1B}") == "'a\\nb\\u{1b}'")
    }

    @Test func anOversizedFileIsRefusedByItsSize() throws {
        // Sparse: 11 MB on disk costs nothing, and reading it whole would be noticed.
        let path = tempPath("huge.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{\"axes\": \"".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 11_000_000)
        try handle.close()
        let r = runTiltserial(["/dev/null", "--config", path])
        #expect(r.code == 21)
        #expect(r.err == "tiltserial: error: \(path): 11000000 bytes is too large for a config file (at most 65536 bytes); see docs/usage.md\n")
        // Bytes handed to the pure reader are held to the same limit.
        #expect(Self.error(String(repeating: " ", count: 65_537))
            == "c.json: 65537 bytes is too large for a config file (at most 65536 bytes); see docs/usage.md")
        // A device with no size is read no further than the limit.
        let r2 = runTiltserial(["/dev/null", "--config", "/dev/zero"])
        #expect(r2.code == 21)
        #expect(r2.err == "tiltserial: error: /dev/zero: more than 65536 bytes is too large for a config file; see docs/usage.md\n")
    }
}

/// A value from outside holding ESC or a newline is escaped in the error
/// line (a recording's path, an unknown option): it was printed raw.
@Suite struct ErrorLineEscapeTests {
    @Test func controlCharactersInAPathOrAnOptionAreEscaped() {
        let path = "/tmp/x\u{1b}[31mRED\nSECOND"
        let replay = runTiltserial(["replay", path])
        #expect(replay.err == "tiltserial: error: /tmp/x\\u{1b}[31mRED\\nSECOND: cannot read it (No such file or directory); check the path\n", "\(replay.err)")
        let option = runTiltserial(["--" + path])
        #expect(option.code == 21)
        #expect(option.err.hasPrefix("tiltserial: error: Unknown option '--/tmp/x\\u{1b}[31mRED SECOND'"), "\(option.err)")
    }
}

/// What `run`, `calibrate` and `setup` say when bytes came but no frame.
@Suite struct WhatArrivedTests {
    /// At 38400 already (the 3.3 V Pro Mini's rate), the hint names a build
    /// for the wrong clock, not "--baud 38400" again.
    @Test func atTheProMinisRateTheBuildsClockIsNamed() {
        let bytes: [UInt8] = [0x81, 0x93, 0xA5]
        let at38400 = HostRunner.whatArrived(.binary, firstLine: [], seenBytes: bytes, baud: 38400)
        #expect(at38400.contains("built for the board's clock (make -C Hardware BOARD=promini-8mhz"), "\(at38400)")
        #expect(!at38400.contains("--baud 38400"))
        let at115200 = HostRunner.whatArrived(.binary, firstLine: [], seenBytes: bytes, baud: 115200)
        #expect(at115200.contains("check the baud rate (now 115200; the sketch uses 115200, 38400 on a 3.3 V Pro Mini: --baud 38400)"))
    }
}
