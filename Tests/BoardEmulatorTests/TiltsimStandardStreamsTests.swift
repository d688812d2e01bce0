import Foundation
import Testing

/// tiltsim with a stdout that cannot be written: full (`> /dev/full`) or
/// closed (`>&-`). FileHandle's write trapped (SIGILL, exit 132) in every
/// command; now the run ends with one line and ioError (19), or 1 for
/// `tiltsim wokwi` (wokwi-cli's code for any failure), as tiltserial does.
@Suite struct TiltsimStandardStreamsTests {
    let tiltsim = TiltsimCommandTests()

    /// tiltsim with ARGUMENTS through sh, stdout redirected by `redirect`.
    func run(_ arguments: [String], stdout redirect: String) throws -> (code: Int32, out: String, err: String) {
        try tiltsim.run(["-c", "exec \"$0\" \"$@\" \(redirect)", TiltsimCommandTests.products.appendingPathComponent("tiltsim").path] + arguments,
                        executable: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test func aFullOrClosedStdoutEndsWithOneLineAndItsCode() throws {
        let folder = try ScratchFolder()
        let full = folder.fullDevice()
        let echo = try SketchFixtures.bootEcho.get()
        let nano = try BuiltFirmware.existing("examples/nano-tilt/build/tilt_bubble.hex", builtBy: "make fixtures (make -C examples)").get()
        let commands: [(arguments: [String], code: Int32, prefix: String)] = [
            (["--engine", "native", "--duration", "0.3"], 19, "tiltsim: "),
            (["run", echo.elf, "--timeout", "0.5"], 19, "tiltsim: "),
            (["wokwi", BuiltFirmware.root + "/examples/nano-tilt", "--elf", nano, "--expect-text", "az="], 1, "Error: "),
        ]
        for (redirect, why) in [("> \(full)", "No space left on device, errno 28"), (">&-", "Bad file descriptor, errno 9")] {
            for command in commands {
                let result = try run(command.arguments, stdout: redirect)
                #expect(result.code == command.code, "\(command.arguments[0]) \(redirect): \(result.err)")
                let errors = result.err.split(separator: "\n").filter { $0.contains("writing stdout failed") }
                #expect(errors == ["\(command.prefix)writing stdout failed (\(why)); what came after is lost: check where stdout goes "
                                   + "(its disk may be full), or send it elsewhere"], "\(command.arguments[0]) \(redirect): \(result.err)")
                #expect(!result.err.contains("Fatal error"), "\(result.err)")
            }
        }
        #expect(ScratchFolder.kind(full) == S_IFCHR)
    }

    /// A reader that goes (`tiltsim run … | head`) is no failure: the run
    /// goes on, and ends with its own verdict (SIGPIPE ended it, exit 141).
    @Test func aReaderThatGoesIsNoFailure() throws {
        let echo = try SketchFixtures.bootEcho.get()
        let sh = "(\"$0\" \"$@\"; echo \"exit $?\" >&2) | true"  // true reads nothing and ends at once
        let result = try tiltsim.run(["-c", sh, TiltsimCommandTests.products.appendingPathComponent("tiltsim").path,
                                      "run", echo.elf, "--timeout", "2", "--expect-serial", "^tick 1[0-9]{3}$"],
                                     executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.err.hasSuffix(" simulated)\nexit 0\n"), "\(result.err)")
    }
}
