import ArgumentParser
import Testing
@testable import TiltserialCommand

/// `tiltserial --help`, `-h` and `--version` skip ArgumentParser's full parse
/// (start-up time, docs/perf/startup.md); what they print must still be exactly
/// what the parse prints.
@Suite struct HelpFastPathTests {
    /// `help` goes through the parse (ArgumentParser's HelpCommand for the root
    /// command); `--help` and `-h` take the short way, in the executable too.
    @Test(arguments: [["--help"], ["-h"]])
    func helpIsTheParsesHelp(arguments: [String]) throws {
        let parsed = try runProduct("tiltserial", ["help"])
        #expect(parsed.code == 0)
        #expect(parsed.out.contains("USAGE: tiltserial"))
        let fast = try runProduct("tiltserial", arguments)
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
        #expect(try runProduct("tiltserial", ["--version"]).out == expected)
    }

    /// `help` with a word that names no command is a usage error (it printed
    /// the main help and exit 0); a command's help still works.
    @Test func helpForNoSuchCommandIsAnError() {
        let unknown = runTiltserial(["help", "nosuch"])
        #expect(unknown.code == 21)
        #expect(unknown.err == "tiltserial: error: help nosuch: no such command; tiltserial --help lists them\n")
        #expect(unknown.out.isEmpty)
        let known = runTiltserial(["help", "pins"])
        #expect(known.code == 0 && known.out.contains("USAGE: tiltserial pins"), "\(known.out)")
    }

    @Test func anythingElseIsParsed() {
        for arguments in [["--help", "--version"], ["run", "--help"], ["--helpx"], ["help"], []] {
            let console = CapturedConsole(errIsTerminal: false, screen: .fixed(columns: 80, rows: 24))
            #expect(!TiltserialMain.answeredWithoutParsing(arguments, console.console), "\(arguments)")
            #expect(console.out.isEmpty)
        }
    }
}
