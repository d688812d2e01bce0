import ArgumentParser
import Foundation
import Testing
@testable import TiltserialCommand

/// `tiltserial --help`, `-h` and `--version` skip ArgumentParser's full parse
/// (start-up time, docs/perf/peer.md); what they print must still be exactly
/// what the parse prints.
@Suite struct HelpFastPathTests {
    /// The `tiltserial` executable beside the tests, its stdout.
    static func executable(_ arguments: [String]) throws -> (code: Int32, out: String) {
        let process = Process()
        process.executableURL = Bundle.main.bundleURL.appendingPathComponent("tiltserial")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// `help` goes through the parse (ArgumentParser's HelpCommand for the root
    /// command); `--help` and `-h` take the short way, in the executable too.
    @Test(arguments: [["--help"], ["-h"]])
    func helpIsTheParsesHelp(arguments: [String]) throws {
        let parsed = try Self.executable(["help"])
        #expect(parsed.code == 0)
        #expect(parsed.out.contains("USAGE: tiltserial"))
        let fast = try Self.executable(arguments)
        #expect(fast.code == 0)
        #expect(fast.out == parsed.out)
    }

    @Test func versionIsTheParsesVersion() throws {
        var parsed: String?
        do { _ = try Tiltserial.parseAsRoot(["--version"]) } catch {
            #expect(Tiltserial.exitCode(for: error) == .success)
            parsed = Tiltserial.fullMessage(for: error) + "\n"
        }
        let expected = try #require(parsed)
        let result = runTiltserial(["--version"])
        #expect(result.code == 0)
        #expect(result.out == expected)
        #expect(try Self.executable(["--version"]).out == expected)
    }

    @Test func anythingElseIsParsed() {
        for arguments in [["--help", "--version"], ["run", "--help"], ["--helpx"], ["help"], []] {
            let console = CapturedConsole(errIsTerminal: false, screen: .fixed(columns: 80, rows: 24))
            #expect(!TiltserialMain.answeredWithoutParsing(arguments, console.console), "\(arguments)")
            #expect(console.out.isEmpty)
        }
    }
}
