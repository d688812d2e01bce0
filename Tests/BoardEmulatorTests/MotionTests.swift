import Testing
import TiltCore
@testable import BoardEmulator
@testable import TiltMotion

@Suite struct MotionTests {
    @Test func restPoseReadsTheRecipesRestInMPUCounts() {
        // iOS az = −0.5 → the MPU-6050 reads +0.5 g on z; upright part cos 30° on y.
        let counts = Pose.rest.accelCounts()
        #expect(counts.z == 8192)
        #expect(counts.y == 14189)  // 16384 × cos 30° = 14188.96
        #expect(counts.x == 0)
        #expect(Pose(back: 0, right: 90).accelCounts().x == -16384)  // right side down: iOS ax = +1
    }

    @Test func scriptInterpolatesAndHoldsBeyondItsEnds() throws {
        let script = try MotionScript(parsing: "# t back right\n1 30 0\n3 10 40  # ramp\n")
        #expect(script.pose(at: 0) == Pose(back: 30, right: 0))
        #expect(script.pose(at: 2) == Pose(back: 20, right: 20))
        #expect(script.pose(at: 9) == Pose(back: 10, right: 40))
        #expect(script.duration == 3)
    }

    @Test func scriptErrorsNameTheLine() {
        #expect(throws: MotionScript.ParseError(line: 2, reason: "time 1.0 s is before the previous key (2.0 s)")) {
            try MotionScript(parsing: "2 30 0\n1 30 0")
        }
        #expect(throws: MotionScript.ParseError.self) { try MotionScript(parsing: "0 30") }
        #expect(throws: MotionScript.ParseError.self) { try MotionScript(parsing: "# nothing\n") }
    }

    /// CRLF and CR line ends and a byte-order mark read as LF does, as the
    /// sample CSV reader takes them (a CRLF script was refused as one line,
    /// quoting the whole file).
    @Test func windowsAndOldMacLineEndsReadAsLF() throws {
        let lf = try MotionScript(parsing: "0 30 0\n1.5 30 25 # right\n3 10 25 90\n")
        for text in ["0 30 0\r\n1.5 30 25 # right\r\n3 10 25 90\r\n", "0 30 0\r1.5 30 25 # right\r3 10 25 90\r",
                     "\u{FEFF}0 30 0\n1.5 30 25 # right\n3 10 25 90\n"] {
            #expect(try MotionScript(parsing: text) == lf, "\(text.debugDescription)")
        }
        #expect(throws: MotionScript.ParseError(line: 2, reason: "expected 'seconds back right [turn]', three or four numbers, found '1 x 0'")) {
            try MotionScript(parsing: "0 30 0\r\n1 x 0\r\n")
        }
    }

    /// A time that is not finite, negative or past a day is refused with its
    /// line (inf was taken, and looping it trapped converting to UInt64).
    @Test func timesMustBeFromZeroToADay() {
        for time in ["inf", "nan", "-1", "1e300", "86400.5"] {
            #expect(throws: MotionScript.ParseError(line: 2, reason: "time \(Double(time)!) s: give seconds from 0 to 86400"), "\(time)") {
                try MotionScript(parsing: "0 30 0\n\(time) 30 0\n")
            }
        }
        #expect((try? MotionScript(parsing: "0 30 0\n86400 30 0\n")) != nil)
        // Keys made in code are not checked: a loop over them still never traps.
        var motion = Motion(.script(MotionScript(keys: [.init(0, .rest), .init(.infinity, .rest)])), loops: true)
        #expect(motion.loopMicros == 86_400_000_000)
        _ = motion.sample(atMicros: 5_000_000)
        #expect(Motion(.script(MotionScript(keys: [.init(.nan, .rest)])), loops: true).loopMicros == 0)
    }

    /// A long line is quoted at most 40 characters long.
    @Test func aLongBadLineIsQuotedShort() {
        #expect(throws: MotionScript.ParseError(line: 1, reason: "expected 'seconds back right [turn]', three or four numbers, found '\(String(repeating: "x", count: 40))…'")) {
            try MotionScript(parsing: String(repeating: "x", count: 100_000))
        }
    }

    @Test func noiseIsRepeatableAndNearTheDatasheetRMS() {
        var a = SensorNoise(sampleRate: 100, seed: 7), b = SensorNoise(sampleRate: 100, seed: 7)
        var sumSquares = 0.0
        for _ in 0..<20_000 {
            let n = a.accel()
            #expect(n == b.accel())
            sumSquares += n.x * n.x
        }
        let rms = (sumSquares / 20_000).squareRoot()
        let expected = 400e-6 * (50.0).squareRoot()  // 2.83 mg
        #expect(abs(rms - expected) / expected < 0.05)
    }

    @Test func recordedMotionHoldsEachRowUntilTheNext() throws {
        let rows = try SampleCSV.parse("1000,1,2,3\n11000,4,5,6\n")
        var motion = Motion(.recorded(rows))
        #expect(motion.sample(atMicros: 0).accel == Axes3(x: 1, y: 2, z: 3))
        #expect(motion.sample(atMicros: 9_999).accel == Axes3(x: 1, y: 2, z: 3))
        #expect(motion.sample(atMicros: 10_000).accel == Axes3(x: 4, y: 5, z: 6))
        #expect(motion.duration == 0.01)
    }
}
