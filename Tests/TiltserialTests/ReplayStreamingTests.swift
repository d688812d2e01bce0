import Foundation
import Glibc
import Testing
import TiltCore
import TiltPipeline
@testable import TiltserialCommand

/// `replay` reads files streaming: any line ending, a BOM, exact errors, flat memory.
@Suite struct ReplayStreamingTests {
    func write(_ bytes: [UInt8], _ name: String) -> String {
        let path = tempPath(name)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    static func csv(_ ending: String) -> String {
        var text = "t_us,ax,ay,az,gx,gy,gz" + ending
        for s in Stream.samples(0..<1500).samples { text += SampleCSV.line(s) + ending }
        return text
    }

    @Test func windowsAndOldMacCSVsReplayLikeUnixOnes() {
        let unix = runTiltserial(["replay", write(Array(Self.csv("\n").utf8), "unix.csv"), "--json"])
        #expect(unix.code == 0)
        // 1500 samples a millisecond apart from 1000 µs: ticks at 31 000 + 30 000 k up to 1 500 000, 49 of them.
        #expect(unix.out.split(separator: "\n").count == 49)
        for (name, bytes) in [
            ("crlf.csv", Array(Self.csv("\r\n").utf8)), ("cr.csv", Array(Self.csv("\r").utf8)),
            ("bom.csv", [0xEF, 0xBB, 0xBF] + Array(Self.csv("\r\n").utf8)),
        ] {
            let r = runTiltserial(["replay", write(bytes, name), "--json"])
            #expect(r.code == 0, "\(name)")
            #expect(r.out == unix.out, "\(name)")
        }
    }

    /// Excel's "Unicode text" export is UTF-16: named as such, with the
    /// way to save it, where it was "expected 4 or 7 values, found 2".
    @Test func aUTF16CSVIsNamedAsSuch() {
        let text = Self.csv("\r\n")
        let noMark: [UInt8] = Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let little: [UInt8] = [0xFF, 0xFE] + noMark
        let bigBare: [UInt8] = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for (name, bytes) in [("le.csv", little), ("bare.csv", noMark), ("be.csv", bigBare)] {
            let path = write(bytes, name)
            let r = runTiltserial(["replay", path])
            #expect(r.code == 18, "\(name)")
            #expect(r.err == "tiltserial: error: \(path): UTF-16 text, not UTF-8; a sample CSV is UTF-8 text: save it as \"CSV UTF-8\" (not \"Unicode text\")\n", "\(name)")
        }
        // An SD card log padded with NULs is no UTF-16: it is read, and its line says what is wrong there.
        let padded = write(Array("0,0,0,16384\n".utf8) + [0, 0, 0, 0], "sd.csv")
        let p = runTiltserial(["replay", padded])
        #expect(p.code == 18 && !p.err.contains("UTF-16") && p.err.contains("line 2"), "\(p.err)")
    }

    @Test func hugeTimesAndEmptyFilesAreRefusedInOneLine() {
        let huge = write(Array("0,0,0,16384\n18446744073709551615,0,0,16384\n".utf8), "m.csv")
        let r1 = runTiltserial(["replay", huge])
        #expect(r1.code == 18)
        #expect(r1.err.hasSuffix("tiltserial: error: \(huge): line 2: t_us '18446744073709551615' is beyond the largest time, 9007199254740992 µs (2^53, about 285 years); replay takes a --record file or a sample CSV (docs/usage.md)\n"))
        let headerOnly = write(Array("t_us,ax,ay,az\r\n".utf8), "h.csv")
        let r2 = runTiltserial(["replay", headerOnly])
        #expect(r2.code == 18)
        #expect(r2.err.hasSuffix("tiltserial: error: \(headerOnly): holds no samples; a sample CSV has lines t_us,ax,ay,az,gx,gy,gz (docs/usage.md)\n"))
    }

    /// A damaged recording's host times (back in time, or the largest there is) replay as the samples
    /// they carry, with one warning: the same ticks as the intact recording, no trap.
    @Test func hostTimesThatGoBackOrOverflowAreHeldAndNamed() {
        let stream = Stream.samples(0..<300)
        func recording(_ times: [UInt64]) -> [UInt8] {
            var file = Recording.header(baud: 115_200)
            Stream.hello().withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: 0), to: &file) }
            let chunk = stream.wire.count / times.count
            for (i, time) in times.enumerated() {
                let end = i + 1 == times.count ? stream.wire.count : (i + 1) * chunk
                stream.wire[(i * chunk)..<end].withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: time), to: &file) }
            }
            return file
        }
        let intact = runTiltserial(["replay", write(recording([100, 200, 300, 400]), "intact.tiltrec"), "--json", "--no-config"])
        #expect(intact.code == 0)
        #expect(!intact.out.isEmpty)
        let damaged = write(recording([100, .max - 10, 50, .max]), "damaged.tiltrec")
        let r = runTiltserial(["replay", damaged, "--json", "--no-config"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out == intact.out, "board time drives the ticks")
        #expect(r.err.contains("tiltserial: warning: \(damaged): 1 record went back in host time (a damaged recording); replayed at the latest time before it\n"), "\(r.err)")
        #expect(r.err.contains("replayed: 5124095576 h 2 min, 301 frames"), "\(r.err)")
    }

    /// Garbage at the end of a recording with no delimiter after it (a megabyte
    /// of a wrong baud rate's bytes, say) is an error in the summary, not "0 errors".
    @Test func garbageWithNoDelimiterAtTheEndIsCounted() {
        func recording(tail: [UInt8]) -> String {
            var file = Recording.header(baud: 115_200)
            (Stream.hello() + Stream.samples(0..<100).wire + tail).withUnsafeBytes {
                Recording.append($0, direction: .fromBoard, at: HostTime(micros: 0), to: &file)
            }
            return write(file, "tail\(tail.count).tiltrec")
        }
        let junk = [UInt8](repeating: 0x55, count: 200_000)
        let damaged = runTiltserial(["replay", recording(tail: junk), "--no-config"])
        #expect(damaged.code == 0)
        #expect(damaged.err.contains(", 101 frames, 0 lost, 1 error,"), "\(damaged.err)")
        let cutShort = runTiltserial(["replay", recording(tail: Array(Stream.samples(100..<101).wire.prefix(10))), "--no-config"])
        #expect(cutShort.err.contains(", 101 frames, 0 lost, 0 errors,"), "a frame cut short by the end is not damage: \(cutShort.err)")
    }

    /// A CSV with a bad line part way says its summary with the samples' span
    /// before its error (it said 0.0 s).
    @Test func aBadCSVLinePartWayKeepsTheSpan() {
        var text = "t_us,ax,ay,az\n"
        for k in 0..<1000 { text += "\(k * 10_000),0,8000,14000\n" }
        let path = write(Array((text + "5,x\n").utf8), "cut.csv")
        let r = runTiltserial(["replay", path, "--no-config"])
        #expect(r.code == 18, "\(r.err)")
        #expect(r.err.contains("tiltserial: stopped: 10.0 s, 1000 frames"), "\(r.err)")
    }

    /// A CSV's clock runs in 64 bits: past 2^31 and 2^32 µs (35 min, 71 min)
    /// the same moves make the same ticks as from 0, shifted in time.
    @Test func timesPast32BitsTickAsFromZero() {
        func ticks(from start: UInt64) -> [Substring] {
            var text = "t_us,ax,ay,az\n"
            for k in 0..<300 { text += "\(start + UInt64(k) * 10_000),\(k * 20),8000,14000\n" }
            let r = runTiltserial(["replay", write(Array(text.utf8), "t\(start).csv"), "--no-config", "--json"])
            #expect(r.code == 0 && !r.err.contains("warning"), "\(start): \(r.err)")
            // Each tick without its time: what the physics did, not when.
            return r.out.split(separator: "\n").map { $0.drop { $0 != "," } }
        }
        let fromZero = ticks(from: 0)
        #expect(fromZero.count == 99)
        #expect(Set(fromZero.map { $0.prefix(30) }).count > 10, "the board moves, so the ticks differ")
        for start: UInt64 in [2_147_000_000, 4_294_900_000, 1 << 40] {
            #expect(ticks(from: start) == fromZero, "\(start)")
        }
    }

    /// A FIFO's samples are replayed as its writer writes them, not once 64
    /// KiB have come: ticks come out while the writer is still writing.
    @Test func aFIFOsSamplesAreReplayedAsTheyCome() throws {
        let fifo = tempPath("live.csv")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let process = productProcess("tiltserial", ["replay", fifo, "--no-config", "--json"])
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        var text = "t_us,ax,ay,az\n"
        for k in 0..<150 { text += "\(k * 10_000),0,8000,14000\n" }  // 1.5 s, 49 ticks, 3.3 KB
        writer.write(Data(text.utf8))
        let ticks = readUntil("\"seq\":48,", from: out, seconds: 60)
        #expect(ticks.contains("\"seq\":48,"), "the ticks wait for the writer's end: \(ticks.suffix(200))")
        try writer.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// A file whose t_us stands still (a writer clamping to 32 bits, as mawk's
    /// printf "%d" does) is replayed, with a warning that names why.
    @Test func aTimeThatStandsStillIsNamed() {
        for (stuck, why) in [
            (UInt64(Int32.max), "2147483647 is 2^31 − 1, where a 32-bit number stops: write t_us with 64 bits (in awk, printf \"%.0f\", not \"%d\")"),
            (UInt64(UInt32.max), "4294967295 is 2^32 − 1, where a 32-bit number stops: write t_us with 64 bits"),
            (5_000, "give each sample the time it was read"),
        ] {
            var text = "t_us,ax,ay,az\n"
            for k in 0..<150 { text += "\(stuck < 500_000 ? stuck : min(stuck - 500_000 + UInt64(k) * 10_000, stuck)),0,8000,14000\n" }
            let path = write(Array(text.utf8), "stuck\(stuck).csv")
            let r = runTiltserial(["replay", path, "--no-config"])
            #expect(r.code == 0)
            let repeated = stuck == 5_000 ? 149 : 99  // from k = 50 on, at the stuck time
            #expect(r.err.hasPrefix("tiltserial: warning: \(path): \(repeated) of 150 samples repeat the t_us before them, so the physics sees them as one moment; \(why)\n"), "\(r.err)")
        }
        // A few repeats (a logger's coarse clock) are no warning.
        var text = "t_us,ax,ay,az\n"
        for k in 0..<150 { text += "\(k / 2 * 20_000 + (k % 2 == 1 && k > 20 ? 10_000 : 0)),0,8000,14000\n" }
        let r = runTiltserial(["replay", write(Array(text.utf8), "few.csv"), "--no-config"])
        #expect(r.code == 0 && !r.err.contains("warning"), "\(r.err)")
    }

    /// A recording with thousands of `c` presses (crafted, or damaged) says
    /// 20 and then one line with the count: it said one line a record.
    @Test func manyRestPoseChangesAreSummed() {
        var file = Recording.header(baud: 115_200)
        (Stream.hello() + Stream.samples(0..<100).wire).withUnsafeBytes {
            Recording.append($0, direction: .fromBoard, at: HostTime(micros: 0), to: &file)
        }
        for k in 0..<5000 {
            Recording.append(UnsafeRawBufferPointer(start: nil, count: 0), direction: .recalibrated, at: HostTime(micros: UInt64(1000 + k)), to: &file)
        }
        let path = write(file, "presses.tiltrec")
        let r = runTiltserial(["replay", path, "--no-config"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.components(separatedBy: "the board lies on its side (pitch undefined)").count - 1 == 20, "\(r.err.prefix(300))")
        #expect(r.err.contains("tiltserial: warning: \(path): 4980 more c presses (rest pose) not shown, 5000 in all; "
                               + "a person presses c a few times a run: is the recording damaged?\n"), "\(r.err.suffix(400))")
    }

    /// A record damaged part way ends the replay with exit 18, after the
    /// summary of what came before it, as a run says its summary before its
    /// error (the summary was lost).
    @Test func aDamagedRecordPartWayKeepsTheSummary() {
        var file = Recording.header(baud: 115_200)
        (Stream.hello() + Stream.samples(0..<100).wire).withUnsafeBytes {
            Recording.append($0, direction: .fromBoard, at: HostTime(micros: 0), to: &file)
        }
        file += [0x7F] + [UInt8](repeating: 0, count: 10)  // a record whose direction byte is none
        let path = write(file, "damaged-part-way.tiltrec")
        let r = runTiltserial(["replay", path, "--no-config"])
        #expect(r.code == 18, "\(r.err)")
        let lines = r.err.split(separator: "\n")
        #expect(lines.count >= 2 && lines[lines.count - 2].hasPrefix("tiltserial: stopped: ") && lines[lines.count - 2].contains(", 101 frames, 0 lost"),
                "\(r.err)")
        #expect(lines.last?.hasPrefix("tiltserial: error: \(path): recording damaged at byte") == true, "\(r.err)")
    }

    /// A board that resets every 50 ms (its display answering one time, not
    /// the next) printed its HELLO line each time: six are said, then one
    /// line counts the rest and names the latest.
    @Test func aBoardThatKeepsResettingIsSummed() {
        var file = Recording.header(baud: 115_200)
        for k in 0..<20 {
            (Stream.hello(status: k % 2 == 0 ? 3 : 1) + Stream.samples(k * 50..<(k + 1) * 50, start: UInt32(1000 + k * 50_000)).wire)
                .withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: UInt64(k) * 50_000), to: &file) }
        }
        let r = runTiltserial(["replay", write(file, "resets.tiltrec"), "--no-config"])
        #expect(r.code == 0, "\(r.err)")
        let lines = r.err.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("tiltserial: board: firmware") }.count == BoardLineBudget.burst, "\(r.err)")
        #expect(lines.contains { $0.hasPrefix("tiltserial: warning: the board said HELLO or PARTS 14 more times (not shown): it keeps resetting or "
            + "changing what it reports (a brown-out, a loose wire, a sketch that crashes?); latest: board: firmware 1.0.0") && $0.hasSuffix("display NOT answering") },
                "\(r.err)")
    }

    /// A HELLO naming a rate no board samples at is said, as an event and a warning.
    @Test func anImplausibleRateIsNamed() {
        var file = Recording.header(baud: 115_200)
        (Stream.hello(rate: 65_535) + Stream.samples(0..<100).wire).withUnsafeBytes {
            Recording.append($0, direction: .fromBoard, at: HostTime(micros: 0), to: &file)
        }
        let r = runTiltserial(["replay", write(file, "rate.tiltrec"), "--json", "--no-config"])
        #expect(r.code == 0)
        #expect(r.out.contains("{\"event\":\"implausible_rate\",\"rate_hz\":65535}\n"), "\(r.out.prefix(400))")
        #expect(r.err.contains("warning: HELLO says the board samples at 65535 Hz, outside 1–20000: lost frames are counted from sequence numbers alone"), "\(r.err)")
        let fine = runTiltserial(["replay", write(recordingAt1kHz(), "fine.tiltrec"), "--json", "--no-config"])
        #expect(fine.code == 0 && !fine.out.contains("implausible_rate") && !fine.err.contains("outside 1–20000"))
        #expect(!r.err.contains("waiting for the board"), "a file has no board to wait for: \(r.err)")
    }

    func recordingAt1kHz() -> [UInt8] {
        var file = Recording.header(baud: 115_200)
        (Stream.hello(rate: 1000) + Stream.samples(0..<100).wire).withUnsafeBytes {
            Recording.append($0, direction: .fromBoard, at: HostTime(micros: 0), to: &file)
        }
        return file
    }

    @Test func aFileTooShortForARecordingHeaderIsAnError() {
        for (bytes, name) in [(Array("TILTR".utf8), "x.tiltrec"), (Array("TILTREC1\u{0}".utf8), "y.bin"), ([], "empty.tiltrec")] {
            let path = write(bytes, name)
            let r = runTiltserial(["replay", path])
            #expect(r.code == 18, "\(name)")
            #expect(r.err.hasSuffix("tiltserial: error: \(path): too short for a tiltserial recording (\(bytes.count) bytes; its header alone is 12); record again with --record\n"), "\(name)")
        }
    }

    @Test func recordsAcrossBlockBoundariesReplayWhole() {
        let stream = Stream.heldTilt(0..<6000)
        var file = Recording.header(baud: 115_200)
        Stream.hello().withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: 0), to: &file) }
        // Records of odd sizes, so many straddle the replay's 64 KiB blocks; one is a whole 65535.
        var start = 0, size = 1
        while start < stream.wire.count {
            let end = min(stream.wire.count, start + size)
            stream.wire[start..<end].withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: UInt64(start)), to: &file) }
            start = end
            size = size == 1 ? 65_535 : size * 7 % 997 + 1
        }
        let r = runTiltserial(["replay", write(file, "long.tiltrec"), "--json", "--physics", "recipe"])
        #expect(r.code == 0)
        let ticks = r.out.split(separator: "\n").filter { $0.hasPrefix("{\"t_us\"") }
        let expected = Stream.recipeOffsets(forHeldTilt: 6000)
        #expect(ticks.count == expected.count)
        #expect(zip(ticks, expected).allSatisfy { $0.contains("\"px\":\($1.viewportX),\"py\":\($1.viewportY),") })
    }

    @Test func memoryStaysFlatInTheFilesSize() throws {
        // A CSV mostly of long comments, and a recording mostly of idle bytes, ~40 MB each:
        // peak RSS of `tiltserial replay` (its own process, via wait4) must not grow with them.
        let small = 1, large = 40
        func csv(_ megabytes: Int) -> [UInt8] {
            var bytes = Array(Self.csv("\n").utf8)
            let comment = Array(("# " + String(repeating: "x", count: 997) + "\n").utf8)
            bytes.reserveCapacity(bytes.count + megabytes * 1_000_000)
            for _ in 0..<(megabytes * 1000) { bytes += comment }
            return bytes + Array("999999999,1,2,3\n".utf8)
        }
        func recording(_ megabytes: Int) -> [UInt8] {
            var file = Recording.header(baud: 115_200)
            Stream.hello().withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: 0), to: &file) }
            Stream.samples(0..<500).wire.withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: 1), to: &file) }
            let idle = [UInt8](repeating: 0, count: 65_000)
            for i in 0..<(megabytes * 1_000_000 / idle.count) {
                idle.withUnsafeBytes { Recording.append($0, direction: .fromBoard, at: HostTime(micros: UInt64(2 + i)), to: &file) }
            }
            return file
        }
        for (name, make) in [("m.csv", csv), ("m.tiltrec", recording)] {
            let smallPath = write(make(small), name), largePath = write(make(large), name)
            defer { unlink(smallPath); unlink(largePath) }
            let base = try peakRSSOfReplay(smallPath), big = try peakRSSOfReplay(largePath)
            #expect(base.status == 0 && big.status == 0, "\(name)")
            // The old reader held the file three times over (> 100 MB more).
            #expect(big.kilobytes < base.kilobytes + 16_000, "\(name): \(base.kilobytes) kB for \(small) MB, \(big.kilobytes) kB for \(large) MB")
        }
    }

    /// Runs the built `tiltserial replay FILE` and returns its exit status and peak RSS (kB).
    func peakRSSOfReplay(_ file: String) throws -> (status: Int32, kilobytes: Int) {
        let binary = Bundle.main.bundleURL.appendingPathComponent("tiltserial").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [binary, "replay", file, "--json"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, &argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exited, usage.ru_maxrss)
    }
}
