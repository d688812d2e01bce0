import Testing
@testable import TiltCore

@Suite struct SampleCSVTests {
    @Test func readsHeaderCommentsShortAndLongRows() throws {
        let text = "t_us,ax,ay,az\r\n# at rest\n0,0,8192,14189\n\n10000, -5, 6, 7 ,1,-2,3\n"
        let samples = try SampleCSV.parse(text)
        #expect(samples.count == 2)
        #expect(samples[0] == TimedSample(timeMicros: 0, sequence: 0, raw: RawSample(accel: .init(x: 0, y: 8192, z: 14189))))
        #expect(samples[1].raw.gyro == Axes3(x: 1, y: -2, z: 3))
        #expect(samples[1].sequence == 1)
        #expect(SampleCSV.line(samples[1]) == "10000,-5,6,7,1,-2,3")
    }

    @Test func namesTheLineAndTheFix() {
        #expect(throws: SampleCSV.ParseError(line: 2, reason: "ay '40000' is not a count from -32768 to 32767")) {
            try SampleCSV.parse("0,1,2,3\n5,1,40000,3")
        }
        #expect(throws: SampleCSV.ParseError(line: 1, reason: "expected 4 or 7 comma-separated values (t_us,ax,ay,az,gx,gy,gz), found 5")) {
            try SampleCSV.parse("0,1,2,3,4")
        }
        #expect(throws: SampleCSV.ParseError(line: 2, reason: "t_us 5 goes back in time (previous 9)")) {
            try SampleCSV.parse("9,1,2,3\n5,1,2,3")
        }
    }

    @Test func onlyTheFirstLineMayBeAHeader() {
        #expect(throws: SampleCSV.ParseError(line: 2, reason: "expected 4 or 7 comma-separated values (t_us,ax,ay,az,gx,gy,gz), found 1")) {
            try SampleCSV.parse("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon\n")
        }
    }
}
