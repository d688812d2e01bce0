import Testing
@testable import TiltCore

/// The streaming reader: line endings, BOM, ranges, bounded errors, chunking.
@Suite struct SampleCSVReaderTests {
    static let lf = "t_us,ax,ay,az\n# at rest\n0,0,8192,14189\n\n10000, -5, 6, 7 ,1,-2,3\n"

    func error(_ text: String) -> SampleCSV.ParseError? {
        do { _ = try SampleCSV.parse(text); return nil } catch { return error }
    }

    @Test func windowsAndOldMacLineEndingsReadLikeUnix() throws {
        let unix = try SampleCSV.parse(Self.lf)
        #expect(unix.count == 2)
        let crlf = Self.lf.replacingAll("\n", with: "\r\n")
        let cr = Self.lf.replacingAll("\n", with: "\r")
        #expect(try SampleCSV.parse(crlf) == unix)
        #expect(try SampleCSV.parse(cr) == unix)
        // Line numbers count CRLF as one ending, CR and LF alone as one each.
        #expect(error("0,1,2,3\r\n5,1,40000,3\r\n")?.line == 2)
        #expect(error("0,1,2,3\r\r5,1,40000,3\r")?.line == 3)
        #expect(error("0,1,2,3\n\r5,1,40000,3")?.line == 3)
        #expect(error("0,1,2,3\r\n\r\n\n5,1,40000,3")?.line == 4)
        #expect(error("0,1,2,3\r5,1,2,3\n9,1,40000,3")?.line == 3)
        #expect(error("0,1,2,3\r\n5,1,2,3\r\n9,1,40000,3\r\n")?.line == 3)
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(try SampleCSV.parse("\u{FEFF}t_us,ax,ay,az\r\n0,1,2,3\r\n").count == 1)
        #expect(try SampleCSV.parse("\u{FEFF}0,1,2,3").count == 1)
        // Only at the very start, and a broken one is an error on line 1.
        #expect(error("0,1,2,3\n\u{FEFF}5,1,2,3")?.line == 2)
        let broken = [UInt8]([0xEF, 0xBB, 0x30, 0x2C, 0x31, 0x2C, 0x32, 0x2C, 0x33])
        #expect(throws: SampleCSV.ParseError.self) { try SampleCSV.parse(bytes: broken) }
    }

    @Test func timesAreWholeMicrosecondsUpTo2To53() throws {
        let top = SampleCSVReader.maxTimeMicros
        #expect(top == 1 << 53)
        #expect(try SampleCSV.parse("0,0,0,16384\n\(top),0,0,16384\n").last?.timeMicros == top)
        let beyond = "t_us '9007199254740993' is beyond the largest time, 9007199254740992 µs (2^53, about 285 years)"
        #expect(error("0,0,0,16384\n\(top + 1),0,0,16384\n") == .init(line: 2, reason: beyond))
        #expect(error("0,0,0,16384\n18446744073709551615,0,0,16384\n")?.reason.contains("beyond the largest time") == true)
        #expect(error("0,0,0,16384\n999999999999999999999999999999,0,0,16384\n")?.reason.contains("beyond the largest time") == true)
        #expect(error("-1,0,0,0") == .init(line: 1, reason: "t_us '-1' is not a whole number of microseconds"))
        #expect(error("1.5,0,0,0") == .init(line: 1, reason: "t_us '1.5' is not a whole number of microseconds"))
        #expect(error(",0,0,0") == .init(line: 1, reason: "t_us '' is not a whole number of microseconds"))
        #expect(try SampleCSV.parse("+7,0,0,0")[0].timeMicros == 7)
    }

    @Test func countsAreSixteenBitSigned() throws {
        let s = try SampleCSV.parse("0,-32768,32767,+0,-0,1,-1\n")
        #expect(s[0].raw.accel == Axes3(x: -32768, y: 32767, z: 0))
        #expect(s[0].raw.gyro == Axes3(x: 0, y: 1, z: -1))
        #expect(error("0,-32769,0,0") == .init(line: 1, reason: "ax '-32769' is not a count from -32768 to 32767"))
        #expect(error("0,0,0,0,0,0,99999999999999999999999") == .init(line: 1, reason: "gz '99999999999999999999999' is not a count from -32768 to 32767"))
        #expect(error("0,0,1 2,0") == .init(line: 1, reason: "ay '1 2' is not a count from -32768 to 32767"))
        #expect(error("0,0,--1,0") == .init(line: 1, reason: "ay '--1' is not a count from -32768 to 32767"))
        #expect(error("0,0,-,0") == .init(line: 1, reason: "ay '-' is not a count from -32768 to 32767"))
        // A wrong field count wins over a bad value on the same line.
        #expect(error("0,x,0,0,0")?.reason == "expected 4 or 7 comma-separated values (t_us,ax,ay,az,gx,gy,gz), found 5")
    }

    @Test func errorsQuoteAtMostFortyPrintableCharacters() {
        let long = String(repeating: "7", count: 5_000_000)
        let e = error("0,0,0,0\n1,\(long)5,0,0\n")
        #expect(e?.line == 2)
        #expect(e.map { $0.reason.count < 160 } == true)
        #expect(e?.reason.hasPrefix("line is longer than 1024 bytes (starts '1,7777777") == true)
        let field = String(repeating: "9", count: 100)
        let f = error("0,\(field),0,0")
        #expect(f?.reason == "ax '\(String(repeating: "9", count: 40))…' is not a count from -32768 to 32767")
        let control = error("0,1\u{1B}[2J,0,0")
        #expect(control?.reason == "ax '1?[2J' is not a count from -32768 to 32767")
        // A long comment or header is refused the same way (nothing is read into memory).
        #expect(error("# " + String(repeating: "c", count: 2000))?.reason.hasPrefix("line is longer than 1024 bytes") == true)
    }

    @Test func chunkingNeverChangesTheResult() {
        let documents = [
            Self.lf, Self.lf.replacingAll("\n", with: "\r\n"), Self.lf.replacingAll("\n", with: "\r"),
            "\u{FEFF}t_us,ax\r\n0,1,2,3\r\n5,1,2,3,4\r\n", "0,1,2,3\r\n5,1,40000,3\r\n", "\u{FEFF}",
            "1,2,3,4\r\n\r\n2,3,4,5\r", "0,0,0,16384\r\n18446744073709551615,0,0,16384\r\n",
            "0,1,2,3\r5,1,2,3\n9,1,40000,3\r\n", "0,-32768,32767,0,1,2,3\n9,1,2,3\n8,1,2,3\n", "7,1,2,3\n9007199254740993,1,2,3",
        ]
        for document in documents {
            let bytes = Array(document.utf8)
            let whole = collect(bytes, chunk: bytes.count + 1)
            for size in [1, 2, 3, 5, 7] {
                let chunked = collect(bytes, chunk: size)
                #expect(chunked.samples == whole.samples, "\(document.debugDescription) in chunks of \(size)")
                #expect(chunked.error == whole.error, "\(document.debugDescription) in chunks of \(size)")
            }
        }
    }

    @Test func countsSamplesAndTimes() throws {
        var reader = SampleCSVReader()
        var n = 0
        try Array("5,0,0,0\n9,0,0,0".utf8).withUnsafeBytes { raw in try reader.feed(raw) { _ in n += 1 } }
        #expect(n == 1)
        try reader.finish { _ in n += 1 }
        #expect(n == 2)
        #expect(reader.sampleCount == 2)
        #expect(reader.firstTimeMicros == 5)
        #expect(reader.lastTimeMicros == 9)
    }

    @Test func anErrorSticks() {
        var reader = SampleCSVReader()
        let bad = Array("0,0,0\n".utf8), good = Array("1,0,0,0\n".utf8)
        #expect(throws: SampleCSV.ParseError.self) { try bad.withUnsafeBytes { raw in try reader.feed(raw) { _ in } } }
        #expect(throws: SampleCSV.ParseError(line: 1, reason: "expected 4 or 7 comma-separated values (t_us,ax,ay,az,gx,gy,gz), found 3")) {
            try good.withUnsafeBytes { raw in try reader.feed(raw) { _ in Issue.record("a sample after an error") } }
        }
    }

    func collect(_ bytes: [UInt8], chunk: Int) -> (samples: [TimedSample], error: SampleCSV.ParseError?) {
        var reader = SampleCSVReader()
        var samples: [TimedSample] = []
        do {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                try bytes[start..<end].withUnsafeBytes { raw in try reader.feed(raw) { samples.append($0) } }
                start = end
            }
            try reader.finish { samples.append($0) }
            return (samples, nil)
        } catch {
            return (samples, error as? SampleCSV.ParseError)
        }
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
