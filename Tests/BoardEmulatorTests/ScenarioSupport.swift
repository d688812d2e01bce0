import TiltAssets
import TiltCore
import TiltPhysics
@testable import BoardEmulator
@testable import TiltMotion

/// A scenario played through the real physics: Motion at 100 Hz with the
/// default noise, TiltEngine with default settings and the shipped art (the
/// drawer holding the shipped items, as the host has it).
struct ScenarioRun {
    var ticks: [Tick] = []
    let geometry: ContentGeometry

    /// - Parameter hostJoinsAt: the host's first sample, seconds into the motion
    ///   (a host that opened the port late).
    init(_ script: MotionScript, rateHz: Int = 100, extraSeconds: Double = 1, noiseSeed: UInt64 = 0x5EED,
         hostJoinsAt: Double = 0, loops: Int = 1) throws {
        let art = try TiltAssets.load()
        geometry = art.tile.geometry
        var engine = try TiltEngine(geometry: geometry, ribbonArt: art.ribbon.mask, drawerItems: art.items.count)
        var motion = Motion(.script(script), noise: SensorNoise(sampleRate: Double(rateHz), seed: noiseSeed), loops: loops > 1)
        let period = UInt64(1_000_000 / rateHz)
        let count = UInt64((script.duration * Double(loops) + extraSeconds) * Double(rateHz))
        var collected: [Tick] = []
        for k in 1...count {
            let t = k * period
            let raw = motion.sample(atMicros: t)
            if Double(t) / 1e6 < hostJoinsAt { continue }
            let sample = TimedSample(timeMicros: t, sequence: UInt8(truncatingIfNeeded: k), raw: raw)
            engine.ingest(sample) { collected.append($0) }
        }
        ticks = collected
    }

    var fires: [Tick] { ticks.filter(\.fired) }
    var pulledOut: [Tick] { ticks.filter { $0.drawerEvents.pulledOut != nil } }
    var dropped: [Pin] { ticks.compactMap(\.drawerEvents.dropped) }
    var engagements: Int {
        zip(ticks.dropFirst(), ticks).filter { $0.engaged && !$1.engaged }.count + (ticks.first?.engaged == true ? 1 : 0)
    }
    var maxX: Int { ticks.map(\.viewportX).max() ?? 0 }
    var maxY: Int { ticks.map(\.viewportY).max() ?? 0 }
    var last: Tick { ticks.last! }

    /// The tick at `seconds` of board time (or the last one before it).
    func at(_ seconds: Double) -> Tick {
        ticks.last { Double($0.timeMicros) / 1e6 <= seconds } ?? ticks[0]
    }

    /// Which of the four content corners the viewport reached (within `slack` px).
    func corners(slack: Int = 0) -> Set<String> {
        var seen = Set<String>()
        for t in ticks {
            let left = t.viewportX <= slack, right = t.viewportX >= geometry.maxViewportX - slack
            let top = t.viewportY <= slack, bottom = t.viewportY >= geometry.maxViewportY - slack
            if top && left { seen.insert("top-left") }
            if top && right { seen.insert("top-right") }
            if bottom && left { seen.insert("bottom-left") }
            if bottom && right { seen.insert("bottom-right") }
        }
        return seen
    }

    /// One line per half second, for tuning.
    var trace: String {
        var lines: [String] = []
        var next = 0.0
        for t in ticks where Double(t.timeMicros) / 1e6 >= next || t.fired {
            let d = t.drawer
            let drawer = d.shown == 0 ? "" : " drawer \(d.shown) scroll \(d.scroll) current \(d.current.map(String.init) ?? "-")"
                + (d.dragged.map { " drag \($0.item) at \($0.left),\($0.top)" } ?? "")
            lines.append(String(format: "%6.2f s x %3d y %3d stretch %6.1f%@%@%@", Double(t.timeMicros) / 1e6,
                                t.viewportX, t.viewportY, t.stretchValue, t.engaged ? " engaged" : "", t.fired ? " FIRED" : "", drawer))
            if Double(t.timeMicros) / 1e6 >= next { next += 0.5 }
        }
        return lines.joined(separator: "\n")
    }
}
