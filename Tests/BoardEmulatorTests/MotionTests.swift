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
