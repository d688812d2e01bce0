/// Named motion scripts for `tiltsim --motion NAME` and the demo, tuned against
/// the real physics (TiltEngine with default settings, the shipped 512 × 256
/// content, the viewport starting at the top-left corner): see
/// Tests/BoardEmulatorTests/ScenarioTests.swift for what each must do.
///
/// Poses are `back°` (tilted back from upright; the rest pose is 30°) and
/// `right°` (right side down). The ribbon hangs at the content's top centre: a
/// pull needs the viewport at the top edge with the display's centre column over
/// the 12-px-wide ribbon art (viewport x 186…197 of 0…384), then a forward tilt
/// (toward upright) held until the stretch passes the threshold. The fire opens
/// the drawer with the ribbon's slot at the centre; left side down scrolls its
/// row toward the first items (docs/physics.md, "The drawer").
public enum Scenarios {
    /// Every scenario, by name, with a one-line summary.
    public static let all: [(name: String, summary: String, script: MotionScript)] = [
        ("rest", "held still at the rest pose (30° back)", rest),
        ("flat", "lying face-up and still (90° back), as a Wokwi MPU-6050 starts: az = +1 g", flat),
        ("tilt-left", "into the map with the right side down, then left side down back to the left edge", tiltLeft),
        ("tilt-right", "right side down 25°: scrolls to the right edge", tiltRight),
        ("tilt-forward", "back into the map, then forward (toward upright) up into the top edge away from the ribbon", tiltForward),
        ("tilt-back", "tilted back 25° more: scrolls to the bottom edge", tiltBack),
        ("tour", "all four corners, over to the ribbon, a pull that opens the drawer, and an item pulled out and dropped: one pin", tour),
        ("pull", "over to the ribbon, then a deliberate pull: fires once", pull),
        ("bump", "over to the ribbon, then a short bump into the top edge: engages, must not fire", bump),
        ("noise", "rest with a hand's tremor (±1.5°) inside the dead zone: stays put", noise),
        ("shake", "fast side-to-side shaking (±30° at 3 Hz)", shake),
        ("drawer", "a pull opens the drawer; scroll it to the home icon, tip toward you to pull it out, steer it, drop it: one pin", drawer),
        ("drawer-sideways", "a pull opens the drawer; sideways swings in it (pitch at rest) scroll it and never pull anything out; a second pull closes it", drawerSideways),
        ("calibrate", "what `tiltserial calibrate` asks for: rest, right side down 25°, level, back 25° more; still 3 s each", calibrate),
    ]

    /// The names, in order.
    public static var names: [String] { all.map(\.name) }

    /// The scenario called `name`, or nil.
    public static func named(_ name: String) -> MotionScript? {
        all.first { $0.name == name }?.script
    }

    /// The rest pose, held for 10 s.
    public static let rest = script([(0, 30, 0), (10, 30, 0)])

    /// Face-up on a table, held for 10 s: what a maker's own sketch (and its
    /// calibration) expects at power-on, and where Wokwi's MPU-6050 starts.
    public static let flat = script([(0, 90, 0), (10, 90, 0)])

    /// "tilt-right": right side down 25° for 7.5 s, scrolling to the right edge.
    public static let tiltRight = script([(0, 30, 0), (0.5, 30, 25), (8, 30, 25), (8.5, 30, 0), (9, 30, 0)])

    /// "tilt-left": right side down into the map, then left side down 25° back to the left edge.
    public static let tiltLeft = script([
        (0, 30, 0), (0.5, 30, 25), (4, 30, 25), (4.5, 30, -25), (10, 30, -25), (10.5, 30, 0), (11, 30, 0),
    ])

    /// "tilt-back": tilted back 25° more (55°) for 4.5 s, scrolling to the bottom edge.
    public static let tiltBack = script([(0, 30, 0), (0.5, 55, 0), (5, 55, 0), (5.5, 30, 0), (6, 30, 0)])

    /// "tilt-forward": back into the map, then forward to 5° up into the top edge, away from the ribbon.
    public static let tiltForward = script([
        (0, 30, 0), (0.5, 55, 0), (3, 55, 0), (3.5, 5, 0), (7, 5, 0), (7.5, 30, 0), (8, 30, 0),
    ])

    /// To the ribbon from anywhere on the top edge: left side down first (the
    /// viewport pins at the left edge, so a host that joined late is in step
    /// again), then right side down 20° for 3.6 s, which stops the viewport at
    /// x ≈ 193 with the ribbon under the display's centre column.
    static let toRibbon: [(Double, Double, Double)] = [
        (0, 30, 0), (0.3, 30, -20), (1.5, 30, -20), (2.0, 30, 0), (2.3, 30, 0),
        (2.8, 30, 20), (5.9, 30, 20), (6.4, 30, 0), (6.8, 30, 0),
    ]

    /// Back from the ribbon to the top-left corner, where the scripts start, so
    /// that a looped one (`tiltsim --loop`, `demo --forever`) does the same
    /// every round: left side down 25° until the viewport pins at the left edge.
    static func backToStart(from s: Double) -> [(Double, Double, Double)] {
        [(s, 30, 0), (s + 0.3, 30, -25), (s + 3.3, 30, -25), (s + 3.6, 30, 0), (s + 4.0, 30, 0)]
    }

    /// "pull": over to the ribbon, then forward to 5° for 1.5 s: fires once
    /// (opening the drawer; looped, every other round closes it), then back to the start.
    public static let pull = script(toRibbon + [(7.3, 5, 0), (8.8, 5, 0), (9.3, 30, 0)] + backToStart(from: 10.3))

    /// "bump": over to the ribbon, then forward to 5° for only 0.3 s: engages, must not fire; back to the start.
    public static let bump = script(toRibbon + [(7.0, 5, 0), (7.3, 5, 0), (7.5, 30, 0)] + backToStart(from: 9.3))

    /// After a pull that opened the drawer (at rest from `start`): left side
    /// down scrolls the row from the ribbon's slot to the home icon, a tip toward you
    /// (15° forward) pulls it out, a little right side down steers it left over
    /// the map, and back at rest it is dropped.
    static func pullOutAndDrop(from s: Double) -> [(Double, Double, Double)] {
        let t = s + 2.0  // the scroll to the home icon ends
        return [
            (s, 30, 0), (s + 0.3, 30, -20), (t, 30, -20), (t + 0.3, 30, 0), (t + 1.0, 30, 0),  // to the home icon
            (t + 1.3, 15, 0), (t + 2.1, 15, 0),  // tip toward you: pulled out, and down
            (t + 2.3, 15, 12), (t + 3.0, 15, 12),  // steer it
            (t + 3.3, 30, 0), (t + 5.0, 30, 0),  // rest: dropped, the drawer closes
        ]
    }

    /// "drawer": a pull opens the drawer; the home icon is pulled out, steered and dropped: one pin; back to the start.
    public static let drawer = script(toRibbon + [(7.3, 5, 0), (8.8, 5, 0), (9.3, 30, 0)] + pullOutAndDrop(from: 10.0) + backToStart(from: 17.0))

    /// After a pull that opened the drawer: into the row, then swings of
    /// 20–25° either side, the pitch at rest, for 8 s; then over to the
    /// ribbon's slot, whose pull closes it.
    public static let drawerSideways: MotionScript = {
        var keys = toRibbon + [(7.3, 5, 0), (8.8, 5, 0), (9.3, 30, 0), (10.0, 30, 0), (10.3, 30, -20), (11.3, 30, -20)]
        var t = 11.3
        for k in 0..<10 {
            let roll = (k % 2 == 0 ? -1.0 : 1.0) * Double(20 + 5 * (k % 2))
            keys.append((t + 0.3, 30, roll))
            keys.append((t + 0.8, 30, roll))
            t += 0.8
        }
        keys.append((t + 0.3, 30, 0))
        keys.append((t + 1.5, 30, 0))
        // Right side down until the row stops at the ribbon's slot, whose pull
        // closes the drawer; then back to the start.
        keys += [(t + 1.8, 30, 25), (t + 4.3, 30, 25), (t + 4.6, 30, 0), (t + 5.0, 30, 0),
                 (t + 5.5, 5, 0), (t + 7.0, 5, 0), (t + 7.5, 30, 0)] + backToStart(from: t + 8.5)
        return script(keys)
    }()

    /// Bottom-left, bottom-right, top-right (from the start at top-left), then
    /// left side down back to the ribbon from the right edge, a pull that opens
    /// the drawer, and an item pulled out and dropped on the map.
    public static let tour = script([
        (0, 30, 0), (0.5, 70, 0), (3.0, 70, 0), (3.5, 30, 0), (4, 30, 0),  // down to bottom-left
        (4.5, 30, 35), (9, 30, 35), (9.5, 30, 0), (10, 30, 0),  // right to bottom-right
        (10.5, 0, 0), (13.5, 0, 0), (14, 30, 0), (14.5, 30, 0),  // up to top-right
        (15, 30, -20), (18.1, 30, -20), (18.6, 30, 0), (19, 30, 0),  // left to the ribbon
        (19.5, 5, 0), (21, 5, 0), (21.5, 30, 0),  // the pull: the drawer opens
    ] + pullOutAndDrop(from: 22.5))

    /// `tiltserial calibrate`'s three poses, each held 3 s or more (it wants 1 s
    /// of stillness after a 1 s lead-in), with a level pause before the tilt back.
    public static let calibrate = script([
        (0, 30, 0), (5, 30, 0), (5.5, 30, 25), (8.5, 30, 25), (9, 30, 0), (9.5, 30, 0),
        (10, 55, 0), (13, 55, 0), (13.5, 30, 0), (14, 30, 0),
    ])

    /// A hand's tremor: small repeatable wobbles around rest, every 0.2 s.
    public static let noise: MotionScript = {
        var keys: [(Double, Double, Double)] = [(0, 30, 0)]
        var state: UInt64 = 0x7E4A
        func wobble() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) * 0x1p-53 * 2 - 1) * 1.5
        }
        for step in 1...50 { keys.append((Double(step) * 0.2, 30 + wobble(), wobble())) }
        keys.append((10.2, 30, 0))
        return script(keys)
    }()

    /// ±30° side to side, three times a second, for 4 s.
    public static let shake: MotionScript = {
        var keys: [(Double, Double, Double)] = [(0, 30, 0), (0.5, 30, 0)]
        for step in 0..<24 { keys.append((0.5 + Double(step) / 6 + 1 / 12, 30, step % 2 == 0 ? 30 : -30)) }
        keys.append((4.6, 30, 0))
        keys.append((5.5, 30, 0))
        return script(keys)
    }()

    static func script(_ keys: [(Double, Double, Double)]) -> MotionScript {
        MotionScript(keys: keys.map { MotionScript.Key($0.0, Pose(back: $0.1, right: $0.2)) })
    }
}
