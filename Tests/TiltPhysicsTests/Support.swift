import Foundation
import TiltCore
import TiltMotion
import TiltPhysics

/// Test motions: TiltMotion's `Pose` (degrees back from upright, right side
/// down) over time, sampled like the board would.
enum Motion {
    /// MPU-6050 counts at ±2 g for a pose (`Pose.accelCounts`, the emulator's own).
    static func raw(_ pose: Pose) -> RawSample { RawSample(accel: pose.accelCounts()) }

    /// Samples of `pose(t)` (t in seconds from the start) at `hz` for `seconds`,
    /// starting at board time `start` µs.
    static func sampled(
        hz: Double, seconds: Double, start: UInt64 = 1_000_000, _ pose: (Double) -> Pose
    ) -> [TimedSample] {
        let count = Int(seconds * hz)
        return (0...count).map { i in
            let t = Double(i) / hz
            return TimedSample(
                timeMicros: start + UInt64((t * 1_000_000).rounded()), sequence: UInt8(truncatingIfNeeded: i),
                raw: raw(pose(t)))
        }
    }

    /// Piecewise-constant poses: (duration in s, pose) segments.
    static func segments(_ parts: [(Double, Pose)]) -> (Double) -> Pose {
        { t in
            var end = 0.0
            for (duration, pose) in parts {
                end += duration
                if t < end { return pose }
            }
            return parts.last!.1
        }
    }
}

enum Fixtures {
    static let geometry = ContentGeometry(displayWidth: 128, displayHeight: 64, tileWidth: 256, tileHeight: 128)

    /// The shipped ribbon art, parsed from its plain PGM (P2).
    static let ribbon: AlphaMask = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Core/TiltAssets/Resources/ribbon.pgm")
        let text = try! String(contentsOf: url, encoding: .utf8)
        let words = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }) }
        precondition(words[0] == "P2")
        let w = Int(words[1])!, h = Int(words[2])!
        let values = words[4...].map { UInt8($0)! }
        return AlphaMask(width: w, height: h, alpha: Array(values))!
    }()

    static func engine(_ configure: (inout PhysicsSettings) -> Void = { _ in }) -> TiltEngine {
        var settings = PhysicsSettings()
        configure(&settings)
        return try! TiltEngine(settings: settings, geometry: geometry, ribbonArt: ribbon)
    }

    /// All ticks of running `samples` through `engine`.
    static func run(_ engine: inout TiltEngine, _ samples: [TimedSample]) -> [Tick] {
        var ticks: [Tick] = []
        for s in samples { engine.ingest(s) { ticks.append($0) } }
        return ticks
    }

    static func run(_ samples: [TimedSample], _ configure: (inout PhysicsSettings) -> Void = { _ in }) -> [Tick] {
        var e = engine(configure)
        return run(&e, samples)
    }
}

/// A closed-loop hand: picks each pose from the time and the last tick, so a
/// scenario can react to what the engine did (e.g. stop pushing once at the top).
enum Hand {
    static func drive(
        _ engine: inout TiltEngine, hz: Double = 200, seconds: Double, start: UInt64 = 1_000_000,
        _ policy: (Double, Tick?) -> Pose
    ) -> [Tick] {
        var ticks: [Tick] = []
        for i in 0...Int(seconds * hz) {
            let t = Double(i) / hz
            let pose = policy(t, ticks.last)
            let sample = TimedSample(
                timeMicros: start + UInt64((t * 1_000_000).rounded()), sequence: UInt8(truncatingIfNeeded: i),
                raw: Motion.raw(pose))
            engine.ingest(sample) { ticks.append($0) }
        }
        return ticks
    }

    static let rest = Pose.rest
}

extension Tick {
    /// Seconds since the first sample (the scenarios start at 1 s of board time).
    var seconds: Double { Double(timeMicros - 1_000_000) / 1_000_000 }
}
