// physics-plots: draws tilt → offset over time for a few motions, as SVG, and
// prints the ribbon's timing figures quoted in docs/physics.md.
//
//   swift run physics-plots docs/plots
import Foundation
import TiltCore
import TiltMotion
import TiltPhysics

let directory = CommandLine.arguments.dropFirst().first ?? "docs/plots"

/// The recipe's rest pose (TiltMotion's `Pose`, the emulator's convention:
/// degrees back from upright); the charts label pitch from face-up, the host's
/// `--rest-angle` convention (`Pose.degreesFromFaceUp`), so rest reads 60°.
let rest = Pose.rest

/// The shipped ribbon art is a host asset; the plots only need its shape, so a
/// solid 12 × 36 mask stands in (no notch under the grab point either way).
let ribbon = AlphaMask(width: 12, height: 36, alpha: [UInt8](repeating: 255, count: 12 * 36))!
let geometry = ContentGeometry(displayWidth: 128, displayHeight: 64, tileWidth: 256, tileHeight: 128)

struct Run {
    var ticks: [Tick] = []
    var poses: [(Double, Pose)] = []
    /// After each tick: the pull-out gesture's displacement (px, right and down) and whether one is under way.
    var gestures: [(dx: Double, dy: Double, active: Bool)] = []
}

/// Drives an engine at `hz` for `seconds` with a closed-loop pose policy
/// (`drawerItems`: the drawer's item count, 0 for none).
func drive(_ configure: (inout PhysicsSettings) -> Void = { _ in }, hz: Double = 200, seconds: Double, drawerItems: Int = 0,
           _ policy: (Double, Tick?) -> Pose) -> Run {
    var settings = PhysicsSettings()
    configure(&settings)
    var engine = try! TiltEngine(settings: settings, geometry: geometry, ribbonArt: ribbon, drawerItems: drawerItems)
    var run = Run()
    for i in 0...Int(seconds * hz) {
        let t = Double(i) / hz
        let pose = policy(t, run.ticks.last)
        run.poses.append((t, pose))
        let before = run.ticks.count
        engine.ingest(TimedSample(timeMicros: UInt64((t * 1e6).rounded()), sequence: 0, raw: RawSample(accel: pose.accelCounts()))) {
            run.ticks.append($0)
        }
        let g = engine.gesture
        for _ in before..<run.ticks.count { run.gestures.append((Double(g.dx) / 65536, Double(g.dy) / 65536, g.active)) }
    }
    return run
}

func seconds(_ tick: Tick) -> Double { Double(tick.timeMicros) / 1e6 }

func write(_ name: String, _ chart: SVGChart) {
    let path = directory + "/" + name
    do {
        try chart.render().write(toFile: path, atomically: true, encoding: .utf8)
        print("wrote \(path)")
    } catch {
        FileHandle.standardError.write("physics-plots: cannot write \(path): \(error.localizedDescription); create the directory first\n".data(using: .utf8)!)
        exit(1)
    }
}

func segments(_ parts: [(Double, Pose)]) -> (Double, Tick?) -> Pose {
    { t, _ in
        var end = 0.0
        for (d, p) in parts {
            end += d
            if t < end { return p }
        }
        return parts.last!.1
    }
}

try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

// 1. Tilt right, hold, back to rest, tilt left: x offset, smooth vs recipe.
do {
    let motion = segments([(0.5, rest), (3, Pose(back: rest.back, right: 20)),
                           (1, rest), (3, Pose(back: rest.back, right: -35)), (1, rest)])
    let smooth = drive(seconds: 8.5, motion)
    let recipe = drive({ $0.mode = .recipe }, seconds: 8.5, motion)
    write("roll-steps.svg", SVGChart(title: "Sideways tilt steps: x offset", xRange: 0...8.5, panels: [
        Panel(title: "Input: roll (right side down positive)", yLabel: "degrees", yRange: -40...40,
              series: [Series(label: "roll", color: "#555", points: smooth.poses.map { ($0.0, $0.1.right) })]),
        Panel(title: "Output: normalized x offset", yLabel: "x offset", yRange: 0...1, series: [
            Series(label: "smooth (default)", color: "#1f77b4", points: smooth.ticks.map { (seconds($0), $0.xValue) }),
            Series(label: "recipe", color: "#d62728", points: recipe.ticks.map { (seconds($0), $0.xValue) }, dashed: true),
        ]),
    ]))
}

// 2. Tilt back toward face-up, then forward past rest: y offset.
do {
    let motion: (Double, Tick?) -> Pose = { t, _ in
        Pose(back: t < 0.5 ? rest.back : t < 4 ? 55 : t < 5 ? rest.back : t < 7 ? 10 : rest.back)
    }
    let smooth = drive(seconds: 8, motion)
    let recipe = drive({ $0.mode = .recipe }, seconds: 8, motion)
    write("pitch-steps.svg", SVGChart(title: "Forward/back tilt steps: y offset", xRange: 0...8, panels: [
        Panel(title: "Input: pitch from face-up (rest 60°)", yLabel: "degrees", yRange: 20...100,
              series: [Series(label: "pitch", color: "#555", points: smooth.poses.map { ($0.0, $0.1.degreesFromFaceUp) })]),
        Panel(title: "Output: normalized y offset", yLabel: "y offset", yRange: 0...1, series: [
            Series(label: "smooth (default)", color: "#1f77b4", points: smooth.ticks.map { (seconds($0), $0.yValue) }),
            Series(label: "recipe", color: "#d62728", points: recipe.ticks.map { (seconds($0), $0.yValue) }, dashed: true),
        ]),
    ]))
}

// 3. A slow sway through rest with tremor: the dead zone and the gain resets.
do {
    let motion: (Double, Tick?) -> Pose = { t, _ in
        // Tilt right for 2.5 s to leave the edge, then sway through rest.
        Pose(back: rest.back, right: t < 2.5 ? 25 : 18 * sin(2 * .pi * (t - 2.5) / 4) + 1.5 * sin(2 * .pi * t * 5.3))
    }
    let smooth = drive(seconds: 12, motion)
    let noDeadZone = drive({ $0.deadZone = 0; $0.gainRamp = 0 }, seconds: 12, motion)
    let recipe = drive({ $0.mode = .recipe }, seconds: 12, motion)
    write("sway.svg", SVGChart(title: "Sideways sway (±18°, with tremor) after a tilt right: x offset", xRange: 0...12, panels: [
        Panel(title: "Input: roll", yLabel: "degrees", yRange: -30...30,
              series: [Series(label: "roll", color: "#555", points: smooth.poses.map { ($0.0, $0.1.right) })]),
        Panel(title: "Output: normalized x offset (linear = no dead zone, no ramp)", yLabel: "x offset", yRange: 0...1, series: [
            Series(label: "smooth (default)", color: "#1f77b4", points: smooth.ticks.map { (seconds($0), $0.xValue) }),
            Series(label: "smooth, linear", color: "#2ca02c", points: noDeadZone.ticks.map { (seconds($0), $0.xValue) }),
            Series(label: "recipe", color: "#d62728", points: recipe.ticks.map { (seconds($0), $0.xValue) }, dashed: true),
        ]),
    ]))
}

// 4. Rate independence: the same motion sampled at 50, 100 and 1000 Hz.
do {
    let motion: (Double, Tick?) -> Pose = { t, _ in
        Pose(back: 40 - 25 * sin(2 * .pi * t / 7), right: 12 + 25 * sin(2 * .pi * t / 5) + 8 * sin(2 * .pi * t / 1.7))
    }
    let runs = [(50.0, "#d62728"), (100.0, "#2ca02c"), (1000.0, "#1f77b4")].map { hz, color in
        (hz, color, drive(hz: hz, seconds: 15, motion))
    }
    write("rate-independence.svg", SVGChart(title: "One motion sampled at 50, 100 and 1000 Hz (smooth mode)", xRange: 0...15, panels: [
        Panel(title: "Normalized x offset", yLabel: "x offset", yRange: 0...1, series: runs.map { hz, color, run in
            Series(label: "\(Int(hz)) Hz", color: color, points: run.ticks.map { (seconds($0), $0.xValue) }, dashed: hz == 50)
        }),
        Panel(title: "Normalized y offset", yLabel: "y offset", yRange: 0...1, series: runs.map { hz, color, run in
            Series(label: "\(Int(hz)) Hz", color: color, points: run.ticks.map { (seconds($0), $0.yValue) }, dashed: hz == 50)
        }),
        Panel(title: "Difference from 1000 Hz, x in content pixels (of 384)", yLabel: "pixels", yRange: -1...1,
              series: runs.dropLast().map { hz, color, run in
                  Series(label: "\(Int(hz)) Hz", color: color, points: zip(run.ticks, runs.last!.2.ticks).map {
                      (seconds($0), ($0.xValue - $1.xValue) * 384)
                  })
              }),
    ]))
}

// 5. The ribbon: a deliberate pull, a bump, and the wiggles.
var figures: [String] = []
do {
    func centred(_ s: inout PhysicsSettings) { s.ribbonCenterX = 64 }
    let pull = drive(centred, seconds: 14) { t, _ in
        Pose(back: (t >= 6 && t < 8) ? 0 : rest.back)
    }
    var topReached: Double? = nil
    let bump = drive(centred, seconds: 5) { t, last in
        if t < 2 { return Pose(back: 60) }
        if let last, last.viewportY == 0, topReached == nil { topReached = t }
        if let top = topReached, t > top + 0.25 { return rest }
        return Pose(back: -20)
    }
    let fires = pull.ticks.filter(\.fired).map { (x: seconds($0), label: "fired") }
    write("ribbon.svg", SVGChart(title: "Ribbon: a wiggle at 4 s, a pull at 6 s (it cancels the wiggles due at 8 and 12 s)", xRange: 0...14, panels: [
        Panel(title: "Input: pitch (forward of the 60° rest pushes past the top)", yLabel: "degrees", yRange: 40...100,
              series: [Series(label: "pitch", color: "#555", points: pull.poses.map { ($0.0, $0.1.degreesFromFaceUp) })]),
        Panel(title: "Output: ribbon pull (stretch + wiggle)", yLabel: "points", yRange: 0...100,
              series: [Series(label: "pull", color: "#9467bd", points: pull.ticks.map { (seconds($0), $0.stretchValue) })],
              markers: fires),
    ]))
    write("ribbon-bump.svg", SVGChart(title: "Ribbon: a bump into the top edge does not fire", xRange: 0...5, panels: [
        Panel(title: "Input: pitch (scroll down, then forward hard into the top, off 0.25 s after reaching it)",
              yLabel: "degrees", yRange: 20...120,
              series: [Series(label: "pitch", color: "#555", points: bump.poses.map { ($0.0, $0.1.degreesFromFaceUp) })]),
        Panel(title: "Output: y offset (×100) and ribbon pull", yLabel: "points / offset×100", yRange: 0...100, series: [
            Series(label: "y offset × 100", color: "#1f77b4", points: bump.ticks.map { (seconds($0), $0.yValue * 100) }),
            Series(label: "pull", color: "#9467bd", points: bump.ticks.map { (seconds($0), $0.stretchValue) }),
        ]),
    ]))

    // Timing figures for docs/physics.md.
    figures.append("| pose held | time to fire | peak pull of a bump (0.25 s past the top) |")
    figures.append("|---|---|---|")
    for forward in [10.0, 15.0, 20.0, 30.0, 50.0, 70.0] {
        let run = drive(centred, seconds: 6) { t, _ in t >= 0.5 && t < 5 ? Pose(back: rest.back - forward) : rest }
        let fire = run.ticks.first(where: \.fired).map { String(format: "%.2f s", seconds($0) - 0.5) } ?? "never (5 s)"
        var top: Double? = nil
        let b = drive({ centred(&$0); $0.wiggleStartsMicros = [] }, seconds: 6) { t, last in
            if t < 2 { return Pose(back: 60) }
            if let last, last.viewportY == 0, top == nil { top = t }
            if let tt = top, t > tt + 0.25 { return rest }
            return Pose(back: rest.back - forward)
        }
        let peak = b.ticks.map(\.stretchValue).max() ?? 0
        let bumpFired = b.ticks.contains(where: \.fired)
        let bumpText = top == nil ? "top not reached in 4 s" : String(format: "%.0f pt", peak) + (bumpFired ? " (fired)" : "")
        figures.append("| \(Int(forward))° forward of rest | \(fire) | \(bumpText) |")
    }
}
print(figures.joined(separator: "\n"))

// 6. The drawer: a pull-out (Recipe 1-12's "down") and a sideways miss.
do {
    func centred(_ s: inout PhysicsSettings) { s.ribbonCenterX = 64 }
    /// Opens the drawer (a pull until it fires, rest until open), then plays `after` from 3 s.
    func withDrawerOpen(_ after: @escaping (Double) -> Pose) -> (Double, Tick?) -> Pose {
        var fired = false
        return { t, last in
            if last?.fired == true { fired = true }
            if t < 3 { return fired ? rest : Pose(back: 0) }
            return after(t - 3)
        }
    }
    func gesturePanels(_ run: Run, _ markers: [(x: Double, label: String)], xRange: ClosedRange<Double>) -> [Panel] {
        let times = run.ticks.map(seconds)
        func line(_ y: Double, _ label: String) -> Series {
            Series(label: label, color: "#aaa", points: [(xRange.lowerBound, y), (xRange.upperBound, y)], dashed: true)
        }
        return [
            Panel(title: "Input: pitch forward of rest and roll (right side down)", yLabel: "degrees", yRange: -30...30, series: [
                Series(label: "pitch − 60°", color: "#555", points: run.poses.map { ($0.0, $0.1.degreesFromFaceUp - rest.degreesFromFaceUp) }),
                Series(label: "roll", color: "#8c564b", points: run.poses.map { ($0.0, $0.1.right) }),
            ]),
            Panel(title: "The gesture's displacement since it started (display px; down and right positive)", yLabel: "px",
                  yRange: -40...40, series: [
                      Series(label: "dy (down)", color: "#1f77b4", points: zip(times, run.gestures).map { ($0, $1.active ? $1.dy : 0) }),
                      Series(label: "dx (right)", color: "#ff7f0e", points: zip(times, run.gestures).map { ($0, $1.active ? $1.dx : 0) }),
                      line(16, "dy > 16"), line(12, "|dx| < 12"), line(-12, ""),
                  ], markers: markers),
            Panel(title: "The drawer: rows showing, dragged item's top row", yLabel: "rows", yRange: 0...64, series: [
                Series(label: "drawer shown", color: "#9467bd", points: run.ticks.map { (seconds($0), Double($0.drawer.shown)) }),
                Series(label: "dragged top", color: "#2ca02c", points: run.ticks.map { (seconds($0), Double($0.drawer.dragged?.top ?? 0)) }),
            ]),
        ]
    }
    func events(_ run: Run) -> [(x: Double, label: String)] {
        run.ticks.compactMap { t in
            if t.drawerEvents.pulledOut != nil { return (seconds(t), "pulled out") }
            if t.drawerEvents.dropped != nil { return (seconds(t), "dropped") }
            return nil
        }
    }
    // Scroll a little to an item, rest, tip toward you 15°, a little right side down, rest.
    let pullOut = drive(centred, seconds: 10, drawerItems: 8, withDrawerOpen { t in
        t < 0.8 ? Pose(back: rest.back, right: -20) : t < 2 ? rest
            : t < 3 ? Pose(back: rest.back - 15) : t < 4 ? Pose(back: rest.back - 15, right: 10) : rest
    })
    write("drawer-pull-out.svg", SVGChart(title: "Drawer: a tip toward you pulls the marked item out; at rest it drops",
                                          xRange: 0...10, panels: gesturePanels(pullOut, events(pullOut), xRange: 0...10)))
    // Scroll, rest, then a diagonal: down 10° but sideways 25°: past 16 down only when far past 12 across.
    let miss = drive(centred, seconds: 10, drawerItems: 8, withDrawerOpen { t in
        t < 0.8 ? Pose(back: rest.back, right: -20) : t < 2 ? rest
            : t < 4 ? Pose(back: rest.back - 10, right: 25) : rest
    })
    write("drawer-sideways-miss.svg", SVGChart(title: "Drawer: a diagonal tilt misses (down > 16 only with |dx| ≥ 12): nothing pulled out",
                                               xRange: 0...10, panels: gesturePanels(miss, events(miss), xRange: 0...10)))
    let pulled = pullOut.ticks.firstIndex { $0.drawerEvents.pulledOut != nil }
    let crossing = miss.gestures.indices.first { seconds(miss.ticks[$0]) > 5 && miss.gestures[$0].active && miss.gestures[$0].dy > 16 }
    print("drawer: pull-out \(pulled.map { String(format: "%.2f s", seconds(pullOut.ticks[$0]) - 5) } ?? "-") into the tip, at dy \(pulled.map { String(format: "%.1f", pullOut.gestures[$0].dy) } ?? "-") px, "
          + "dx \(pulled.map { String(format: "%.1f", pullOut.gestures[$0].dx) } ?? "-") px; "
          + "the diagonal passes dy 16 at dx \(crossing.map { String(format: "%.1f", miss.gestures[$0].dx) } ?? "-") px, "
          + "\(miss.ticks.filter { $0.drawerEvents.pulledOut != nil }.count) pulled out")
}
