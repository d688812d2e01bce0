import Foundation
import Testing
import TiltCore
@testable import BoardEmulator

/// The DMP enough for MotionApps 2.0: the packet at register level, and a
/// MotionApps-style start-up and reader (Fixtures/Sketches/dmp_motionapps)
/// printing MPU6050_DMP6's yaw/pitch/roll of scripted poses.
@Suite(.serialized) struct DMPTests {
    typealias Register = MPU6050Model.Register

    /// MPU6050_DMP6's angles (degrees) for a DMP quaternion: yaw from the
    /// quaternion, pitch and roll from the gravity it implies.
    static func dmp6Angles(_ q: Quaternion) -> (yaw: Double, pitch: Double, roll: Double) {
        let g = q.up
        let yaw = atan2(2 * q.x * q.y - 2 * q.w * q.z, 2 * q.w * q.w + 2 * q.x * q.x - 1)
        var pitch = atan2(g.x, (g.y * g.y + g.z * g.z).squareRoot())
        let roll = atan2(g.y, g.z)
        if g.z < 0 { pitch = (pitch > 0 ? Double.pi : -Double.pi) - pitch }
        return (yaw * 180 / .pi, pitch * 180 / .pi, roll * 180 / .pi)
    }

    @Test func posesHaveTheOrientationTheirAccelerometerReads() {
        for pose in [Pose(back: 90), Pose(back: 30, right: 10, turn: 40), Pose(back: 120, right: -35, turn: -170)] {
            let up = pose.orientation.up, counts = pose.accelCounts()
            #expect(abs(up.x * 16384 - Double(counts.x)) < 1 && abs(up.y * 16384 - Double(counts.y)) < 1
                    && abs(up.z * 16384 - Double(counts.z)) < 1, "\(pose)")
            let tilt = Quaternion(tiltReading: up).up
            #expect(abs(tilt.x - up.x) < 1e-9 && abs(tilt.y - up.y) < 1e-9 && abs(tilt.z - up.z) < 1e-9)
        }
        // Flat, turned 30° clockwise: DMP6 reads yaw 30; tilts read as pitch −right, roll 90° − back.
        let flat = Self.dmp6Angles(Pose(back: 90, turn: 30).orientation)
        #expect(abs(flat.yaw - 30) < 1e-9 && abs(flat.pitch) < 1e-9 && abs(flat.roll) < 1e-9)
        let tilted = Self.dmp6Angles(Pose(back: 60, right: 20, turn: 30).orientation)
        #expect(abs(tilted.pitch + 20) < 1e-9 && abs(tilted.roll - 30) < 1e-9)
    }

    @Test func gyroReadsTheScriptedTurnRate() throws {
        var motion = Motion(.script(try MotionScript(parsing: "0 90 0 0\n1 90 0 90\n")))  // 90°/s clockwise, flat
        let gyro = motion.sample(atMicros: 500_000).gyro
        #expect(gyro.x == 0 && gyro.y == 0 && abs(Int(gyro.z) + Int((90 * 131.072).rounded())) <= 1, "\(gyro)")
    }

    @Test func packetsCarryTheQuaternionGyroAndAccel() {
        var source = Motion(.script(MotionScript(keys: [.init(0, Pose(back: 60, right: 20, turn: 30))])))
        var model = MPU6050Model()
        func write(_ register: UInt8, _ bytes: UInt8..., at t: UInt64) {
            model.begin(read: false, atMicros: t, source: &source)
            model.write(register, atMicros: t)
            for byte in bytes { model.write(byte, atMicros: t) }
        }
        write(Register.powerManagement1, 0x03, at: 0)
        write(Register.config, 0x03, at: 0)
        write(Register.sampleRateDivider, 4, at: 0)          // 200 Hz
        write(Register.bankSelect, 0x02, at: 0)
        write(Register.memoryStart, 0x16, at: 0)
        write(Register.memoryReadWrite, 0x00, 0x01, at: 0)  // MotionApps 2.0's rate divisor: 100 Hz
        write(Register.intEnable, 0x12, at: 0)
        write(Register.userControl, 0xC4, at: 0)             // DMP on, FIFO on, FIFO reset
        model.advance(toMicros: 1_000_000, source: &source)
        #expect(model.fifoCount == 1024, "100 packets a second: the FIFO ran over, the oldest bytes pushed out")
        #expect(model.registers[Int(Register.intStatus)] & 0x10 != 0, "FIFO_OFLOW")
        write(Register.userControl, 0xC4, at: 1_000_000)
        model.advance(toMicros: 1_010_000, source: &source)
        #expect(model.fifoCount == 42, "one packet per 10 ms")
        model.begin(read: false, atMicros: 1_010_000, source: &source)
        model.write(Register.fifoReadWrite, atMicros: 1_010_000)
        model.begin(read: true, atMicros: 1_010_000, source: &source)
        let p = (0..<42).map { _ in model.read() }
        func word32(_ i: Int) -> Int32 { Int32(bitPattern: UInt32(p[i]) << 24 | UInt32(p[i + 1]) << 16 | UInt32(p[i + 2]) << 8 | UInt32(p[i + 3])) }
        let expected = Pose(back: 60, right: 20, turn: 30).orientation.canonical
        for (i, c) in [expected.w, expected.x, expected.y, expected.z].enumerated() {
            #expect(abs(Double(word32(4 * i)) / 1_073_741_824 - c) < 1e-8)
        }
        let accel = Pose(back: 60, right: 20).accelCounts()
        #expect(abs(Int(word32(28) >> 16) - Int(accel.x) / 2) <= 1 && abs(Int(word32(36) >> 16) - Int(accel.z) / 2) <= 1,
                "accel at 8192 counts per g")
        #expect(word32(16) >> 16 == 0 && word32(20) >> 16 == 0, "still: no rotation")
        #expect(p[40] == 0 && p[41] == 0)
        #expect(model.registers[Int(Register.intStatus)] & 0x02 != 0, "DMP_INT")
    }

    @Test func motionAppsStyleStartUpAndDMP6AnglesWithinOneDegree() throws {
        let script = try MotionScript(parsing: """
            # seconds back right turn
            0    90   0    0
            1.5  90   0    0
            2.5  60   20   30
            4.0  60   20   30
            5.0  100  -15  -45
            6.5  100  -15  -45
            7.5  30   0    90
            9    30   0    90
            """)
        let (board, client) = try ArduinoFixtures.start("dmp_motionapps", motion: Motion(.script(script)))
        defer { board.stop() }
        #expect(client.fields("R ") != nil)
        #expect(client.fields("I ") == ["I", "0"], "the image and the rate divisor read back as written")
        var checked = 0
        var lastRises: Int?
        while let q = client.fields("Q "), let ms = Int(q[1]), ms <= 9000 {
            let yaw = try #require(Double(q[2])), pitch = try #require(Double(q[3])), roll = try #require(Double(q[4]))
            let rises = try #require(Int(q[5]))
            if let lastRises { #expect((23...27).contains(rises - lastRises), "INT rises in 250 ms: \(rises - lastRises)") }
            lastRises = rises
            let holds: [ClosedRange<Int>] = [1000...1500, 2750...4000, 5250...6500, 7750...9000]
            guard holds.contains(where: { $0.contains(ms) }) else { continue }
            // The printed packet is at most 10 ms old and the pose is held.
            let expected = Self.dmp6Angles(script.pose(at: Double(ms) / 1000).orientation)
            #expect(abs(yaw - expected.yaw) < 1 && abs(pitch - expected.pitch) < 1 && abs(roll - expected.roll) < 1,
                    "at \(ms) ms: ypr \(yaw) \(pitch) \(roll), pose gives \(expected)")
            checked += 1
        }
        #expect(checked >= 15)
    }

    /// A motion set while the sketch runs (a scenario's `pose:` or `script:`
    /// step, `ShiftedMotion`) gives the DMP its exact orientation too, not the
    /// tilt the accelerometer reads: the turn about the vertical is only in the former.
    @Test func aMotionSetMidRunReachesTheDMP() throws {
        let pose = try MotionScript(parsing: "0 60 20 30")
        let (outcome, serial) = try runSketch("dmp_motionapps", motion: ConstantMotionSource.faceUp, steps: [
            .wait(micros: 1_000_000),
            .setMotion(Motion(.script(pose))),
            .wait(micros: 1_500_000),
        ])
        #expect(outcome == .passed)
        let expected = Self.dmp6Angles(pose.pose(at: 0).orientation)
        #expect(abs(expected.yaw) > 10, "not vacuous: the pose turns")
        var checked = 0
        for line in serial.split(whereSeparator: \.isNewline) where line.hasPrefix("Q ") {
            let q = line.split(separator: " ").map(String.init)
            guard q.count >= 5, let ms = Int(q[1]), ms >= 1_250 else { continue }
            let yaw = try #require(Double(q[2])), pitch = try #require(Double(q[3])), roll = try #require(Double(q[4]))
            #expect(abs(yaw - expected.yaw) < 1 && abs(pitch - expected.pitch) < 1 && abs(roll - expected.roll) < 1,
                    "at \(ms) ms: ypr \(yaw) \(pitch) \(roll), pose gives \(expected)")
            checked += 1
        }
        #expect(checked >= 4, "\(serial.suffix(300))")
    }

    /// Runs fixture sketch `name` under `tiltsim run`'s engine through `steps`; its serial text.
    func runSketch(_ name: String, motion: any MotionSource, steps: [RunStep]) throws -> (RunOutcome, String) {
        var configuration = AVRMachine.Configuration(firmwarePath: try ArduinoFixtures.path(name), motionSource: motion)
        configuration.configure(for: .uno)
        var serial: [UInt8] = []
        let outcome = SketchRun(machine: try AVRMachine(configuration), plan: RunPlan(timeoutMicros: 10_000_000, steps: steps)).run {
            if case .serial(let bytes) = $0 { serial += bytes }
        }
        return (outcome, String(decoding: serial, as: UTF8.self))
    }
}
