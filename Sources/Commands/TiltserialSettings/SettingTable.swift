import SerialIO
import TiltCore
import TiltPhysics

extension SettingSpec {
    private typealias L = PhysicsSettings.Limits

    /// Every setting, in the order of docs/usage.md's table.
    public static let all: [SettingSpec] = [
        SettingSpec(key: "mode", flag: "physics", type: .choice(IntegratorMode.allCases.map(\.rawValue)), unit: .none,
                    meaning: "Integrator: the book's sample code exactly (recipe) or the smooth one.",
                    read: { .text($0.physics.mode.rawValue) },
                    write: { s, v in if case .text(let t) = v, let m = IntegratorMode(rawValue: t) { s.physics.mode = m } }),
        .int("tickMicros", "tick-ms", \.physics.tickMicros, L.tickMicros, .microsAsMillis, "Physics tick, board time."),
        .double("baseGain", "base-gain", \.physics.baseGain, L.gain, .none, "Smooth: offset per 30 ms per g when a movement starts."),
        .double("gainRamp", "gain-ramp", \.physics.gainRamp, L.gain, .none, "Smooth: gain added per 30 ms while the tilt keeps its direction."),
        .double("gainCap", "gain-cap", \.physics.gainCap, L.gain, .none, "Smooth: largest gain; at least baseGain."),
        .double("deadZone", "dead-zone", \.physics.deadZone, L.deadZone, .named("g"), "Smooth: tilt around the rest pose that counts as rest."),
        .double("yScale", "y-scale", \.physics.yScale, L.yScale, .none, "Smooth: y input scale relative to x."),
        .int("filterMicros", "filter-ms", \.physics.filterMicros, L.filterMicros, .microsAsMillis, "Smooth: low-pass time constant (0: none)."),
        .double("restAngleDegrees", "rest-angle", \.physics.restAngleDegrees, L.restAngleDegrees, .named("degrees"),
                "Smooth: rest pose, from face-up toward face-forward (tiltserial calibrate measures it)."),
        .double("restRollDegrees", "rest-roll", \.physics.restRollDegrees, L.restRollDegrees, .named("degrees"),
                "Smooth: rest pose's lean, right side down (tiltserial calibrate measures it)."),
        SettingSpec(key: "ribbonCenterX", flag: "ribbon-center-x", type: .integer(L.ribbonCenterX, nullable: true), unit: .named("px"),
                    meaning: "Content column of the ribbon's centre (none: the content's centre).",
                    read: { $0.physics.ribbonCenterX.map(SettingValue.integer) ?? .none },
                    write: { s, v in
                        if case .integer(let i) = v { s.physics.ribbonCenterX = i }
                        if case .none = v { s.physics.ribbonCenterX = nil }
                    }),
        .int("ribbonRestVisible", "ribbon-rest-visible", \.physics.ribbonRestVisible, L.ribbonRestVisible, .named("rows"),
             "Ribbon art rows showing at rest."),
        .double("ribbonPixelsPerPoint", "ribbon-pixels-per-point", \.physics.ribbonPixelsPerPoint, L.ribbonPixelsPerPoint, .none,
                "Display pixels per ribbon point."),
        .double("stretchPointsPerPixel", "stretch-points-per-pixel", \.physics.stretchPointsPerPixel, L.stretchPointsPerPixel, .none,
                "Ribbon points per pixel scrolled past the top while engaged."),
        .double("stretchLimit", "stretch-limit", \.physics.stretchLimit, L.stretch, .named("points"), "Largest stretch."),
        .double("fireThreshold", "fire-threshold", \.physics.fireThreshold, L.fireThreshold, .named("points"),
                "A stretch above this fires; at most stretchLimit."),
        .int("rollbackMicros", "rollback-ms", \.physics.rollbackMicros, L.rollbackMicros, .microsAsMillis, "Ribbon roll-back time."),
        .int("grabAlphaThreshold", "grab-alpha", \.physics.grabAlphaThreshold, L.grabAlphaThreshold, .none,
             "Lowest alpha (exclusive) a grab must land on."),
        .double("wiggleDepth", "wiggle-depth", \.physics.wiggleDepth, L.wiggleDepth, .named("points"), "Wiggle depth."),
        .int("wiggleHalfMicros", "wiggle-half-ms", \.physics.wiggleHalfMicros, L.wiggleHalfMicros, .microsAsMillis, "Each half of a wiggle."),
        SettingSpec(key: "wiggleStartsMicros", flag: "wiggle-starts-ms", type: .integers(L.wiggleStartMicros, maxCount: L.maxWiggles),
                    unit: .microsAsMillis, meaning: "When wiggles start after the first sample (empty: none).",
                    read: { .integers($0.physics.wiggleStartsMicros) },
                    write: { s, v in if case .integers(let vs) = v { s.physics.wiggleStartsMicros = vs } }),
        .double("swayPixelsPerG", "sway-pixels-per-g", \.physics.swayPixelsPerG, L.swayPixelsPerG, .none,
                "Ribbon sway, content pixels per g of sideways tilt (0: off)."),
        .int("swayLimit", "sway-limit", \.physics.swayLimit, L.swayLimit, .named("px"), "Largest sway either way."),
        .int("drawerHeight", "drawer-height", \.physics.drawerHeight, L.drawerHeight, .named("rows"), "The drawer's height when open."),
        SettingSpec(key: "axes", flag: "axes", type: .axes, unit: .none,
                    meaning: "Sensor mounting: each board axis from a sensor axis, maybe negated.",
                    read: { .text($0.axes.description) },
                    write: { s, v in if case .text(let t) = v, let m = try? AxisMapping(parsing: t) { s.axes = m } }),
        .int("baud", "baud", \.baud, HostSettings.Limits.baud, .named("baud"),
             "Serial line speed (i2cdevlib's MPU6050_raw uses 38400).", group: .link),
        SettingSpec(key: "dtr", flag: "dtr", type: .choice(["assert", "leave"]), unit: .none,
                    meaning: "DTR on open: assert resets most Arduinos.", group: .link,
                    aliases: [SettingAlias(flag: "no-dtr", text: "leave", help: "Same as --dtr leave: don't reset the board when opening.")],
                    read: { .text($0.dtr == .assert ? "assert" : "leave") },
                    write: { s, v in if case .text(let t) = v { s.dtr = t == "leave" ? .leave : .assert } }),
        .int("helloTimeoutMicros", "hello-timeout", \.helloTimeoutMicros, HostSettings.Limits.helloTimeoutMicros, .microsAsMillis,
             "Give up when no valid frame arrives in time.", group: .link),
        SettingSpec(key: "reconnect", flag: "reconnect", type: .bool, unit: .none,
                    meaning: "Wait for an unplugged board to come back.", group: .link,
                    aliases: [SettingAlias(flag: "no-reconnect", text: "false",
                                           help: "Exit (code 17) when the board is unplugged instead of waiting for it.")],
                    read: { .bool($0.reconnect) },
                    write: { s, v in if case .bool(let b) = v { s.reconnect = b } }),
    ]
}
