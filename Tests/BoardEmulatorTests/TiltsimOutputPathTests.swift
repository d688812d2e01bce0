import Foundation
import Glibc
import Testing

/// Output paths that name a device or a FIFO: every tiltsim writer writes
/// them in place. They wrote FILE.tmp and renamed it over FILE, which turned
/// a device into a plain file (as root it replaced the real /dev/null) and
/// took a FIFO from its reader (an outside tester's).
@Suite struct TiltsimOutputPathTests {
    let tiltsim = TiltsimCommandTests()

    /// The run's arguments for each writer, with `target` as the output path;
    /// the project or scenario files they need are written into `folder`.
    func writers(_ target: String, in folder: ScratchFolder) throws -> [(name: String, arguments: [String], code: Int32)] {
        let bar = try SketchFixtures.tiltBar.get()
        let nano = try BuiltFirmware.existing("examples/nano-tilt/build/tilt_bubble.hex", builtBy: "make fixtures (make -C examples)").get()
        let scenario = folder.path + "/shot.yaml"
        try "steps:\n  - wait: 0.2\n  - screenshot: \(target)\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        // A Wokwi project beside the target: save-to is relative to the scenario's folder.
        try FileManager.default.copyItem(atPath: BuiltFirmware.root + "/examples/nano-tilt/diagram.json", toPath: folder.path + "/diagram.json")
        let name = (target as NSString).lastPathComponent
        let relative = target.hasPrefix(folder.path + "/") ? name : target
        try "name: shot\nversion: 1\nsteps:\n  - delay: 100ms\n  - take-screenshot: {part-id: oled1, save-to: \(relative)}\n"
            .write(toFile: folder.path + "/shot.test.yaml", atomically: true, encoding: .utf8)
        let wokwi = ["wokwi", folder.path, "--elf", nano, "-q"]
        return [
            ("run --screenshot", ["run", bar.elf, "--timeout", "0.5", "--quiet", "--screenshot", "0.2:\(target)"], 18),
            ("run --serial-log", ["run", bar.elf, "--timeout", "0.5", "--quiet", "--serial-log", target], 18),
            ("run scenario screenshot:", ["run", bar.elf, "--timeout", "0.5", "--quiet", "--scenario", scenario], 18),
            ("--png", ["--engine", "native", "--duration", "0.3", "--png", target], 18),
            ("wokwi save-to", wokwi + ["--scenario", "shot.test.yaml", "--timeout", "500"], 1),
            ("wokwi --screenshot-file", wokwi + ["--screenshot-part", "oled1", "--screenshot-time", "100", "--screenshot-file", target,
                                                 "--timeout", "200"], 1),
            ("wokwi --serial-log-file", wokwi + ["--serial-log-file", target, "--timeout", "200"], 1),
        ]
    }

    /// A full device stays a device: each writer fails with one line and its
    /// documented code (18; wokwi-cli's 1), and nothing replaces the node.
    @Test func aDeviceIsWrittenInPlaceAndAWriteErrorIsOneLine() throws {
        let folder = try ScratchFolder()
        let full = folder.fullDevice()
        for writer in try writers(full, in: folder) {
            let result = try tiltsim.run(writer.arguments)
            #expect(result.code == writer.code, "\(writer.name): \(result.err)")
            let errors = result.err.split(separator: "\n").filter { $0.contains("No space left on device") }
            #expect(errors.count == 1, "\(writer.name): \(result.err)")
            #expect(errors.first?.contains("\(full): cannot write") == true, "\(writer.name): \(result.err)")
            #expect(ScratchFolder.kind(full) == S_IFCHR, "\(writer.name) replaced the device")
        }
    }

    /// A log that cannot be written ends the run there, its simulated time
    /// said: it ran on to the timeout (600 s here) and failed only then.
    @Test func aLogThatCannotBeWrittenEndsTheRunThere() throws {
        let folder = try ScratchFolder()
        let full = folder.fullDevice()
        let echo = try SketchFixtures.bootEcho.get()
        let run = try tiltsim.run(["run", echo.elf, "--timeout", "600", "--quiet", "--serial-log", full])
        #expect(run.code == 18)
        #expect(run.err.hasPrefix("tiltsim: at 0.0") && run.err.contains(" \(full): cannot write the serial log (No space left on device)"),
                "\(run.err)")
        #expect(!run.err.contains("passed") && !run.err.contains("FAILED"), "no verdict: the run stopped at the failure")
        let project = folder.path + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        try #"{"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno", "attrs": {}}], "connections": []}"#
            .write(toFile: project + "/diagram.json", atomically: true, encoding: .utf8)
        let wokwi = try tiltsim.run(["wokwi", project, "--elf", echo.hex, "--timeout", "600000", "-q", "--serial-log-file", full])
        #expect(wokwi.code == 1)
        #expect(wokwi.err.range(of: #"Error: \[\d{1,9}ns\] "#, options: .regularExpression) != nil, "within a second of board time: \(wokwi.err)")
    }

    /// A FIFO nobody reads fails each writer at once (its open never waits),
    /// in one line, and stays a FIFO.
    @Test func aFIFOIsWrittenInPlaceAndOneNobodyReadsFailsAtOnce() throws {
        let folder = try ScratchFolder()
        let fifo = folder.fifo("pipe")
        for writer in try writers(fifo, in: folder) {
            let result = try tiltsim.run(writer.arguments, seconds: 20)
            #expect(result.code == writer.code, "\(writer.name): \(result.err)")
            #expect(result.err.contains("tiltsim: \(fifo): a FIFO nobody reads; start its reader first, or name a file\n")
                    || result.err.contains("Error: \(fifo): a FIFO nobody reads; start its reader first, or name a file\n"),
                    "\(writer.name): \(result.err)")
            #expect(ScratchFolder.kind(fifo) == S_IFIFO, "\(writer.name) replaced the FIFO")
        }
    }

    /// A FIFO with a reader gets the whole PNG, however slowly it reads, and
    /// stays a FIFO; a reader that takes nothing fails the write after
    /// `OutputFile.patience` (5 s), in one line, instead of hanging tiltsim
    /// in its write, deaf to Ctrl-C.
    @Test func aFIFOsReaderGetsThePNGAndOneThatNeverReadsCannotHangTiltsim() throws {
        let folder = try ScratchFolder()
        let fifo = folder.fifo("pipe")
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        let keep = open(fifo, O_WRONLY)  // a writer of our own: the reads wait for tiltsim's bytes, not end at once
        #expect(reader >= 0 && keep >= 0)
        defer { close(reader) }
        _ = fcntl(reader, F_SETFL, 0)
        let received = ReceivedBytes()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(reader, &buffer, buffer.count)
                if n <= 0 { break }
                received.append(buffer[..<n])
            }
            done.signal()
        }
        let result = try tiltsim.run(["--engine", "native", "--duration", "0.3", "--png", fifo])
        close(keep)  // with tiltsim's end closed too, the reader reaches the end of the file
        done.wait()
        #expect(result.code == 0, "\(result.err)")
        let png = received.bytes
        #expect(png.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) && png.suffix(8).elementsEqual(Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]),
                "\(png.count) bytes")
        #expect(ScratchFolder.kind(fifo) == S_IFIFO)

        let idle = open(fifo, O_RDONLY | O_NONBLOCK)  // never read
        defer { close(idle) }
        let stuck = try tiltsim.run(["--engine", "native", "--duration", "0.3", "--png", fifo])
        #expect(stuck.code == 18)
        #expect(stuck.err.hasSuffix("tiltsim: \(fifo): its reader took nothing for 5 s; read it, or name a file\n"), "\(stuck.err)")
    }

    final class ReceivedBytes: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [UInt8] = []
        func append(_ bytes: ArraySlice<UInt8>) { lock.withLock { stored += bytes } }
        var bytes: [UInt8] { lock.withLock { stored } }
    }

    /// Checking that a PNG or the EEPROM can be written leaves the user's
    /// files alone: the check made FILE.tmp and then deleted it, an existing
    /// one included.
    @Test func theWritableCheckTouchesNoFileOfTheUsers() throws {
        let folder = try ScratchFolder()
        let png = folder.path + "/screen.png", eeprom = folder.path + "/board.eeprom"
        for kept in [png + ".tmp", eeprom + ".tmp"] { try "mine".write(toFile: kept, atomically: true, encoding: .utf8) }
        let result = try tiltsim.run(["--engine", "native", "--duration", "0.3", "--png", png])
        #expect(result.code == 0, "\(result.err)")
        let echo = try SketchFixtures.bootEcho.get()
        let run = try tiltsim.run(["run", echo.elf, "--timeout", "0.1", "--quiet", "--eeprom", eeprom])
        #expect(run.code == 0, "\(run.err)")
        for kept in [png + ".tmp", eeprom + ".tmp"] {
            #expect((try? String(contentsOfFile: kept, encoding: .utf8)) == "mine", "\(kept) was touched")
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
                == ["screen.png", "screen.png.tmp", "board.eeprom", "board.eeprom.tmp"], "no stray files")
    }
}
