import TiltCore

/// The tilt integrator and the ribbon detector on one board-time tick: the one
/// value the host drives with samples and reads ticks from.
///
/// Time base: samples are applied in arrival order (a timestamp earlier than
/// the previous one counts as the previous one); ticks fall at t0 + k × period
/// for k ≥ 1, t0 being the first sample's time; the tick at T runs after every
/// sample stamped ≤ T (ticks before a sample's time run before it, a tick at
/// exactly its time right after it). No allocation per sample or tick. Any
/// UInt64 time is safe: tick times saturate at UInt64.max (TickClock) and
/// elapsed times clamp, so no time traps or wraps.
public struct TiltEngine: Sendable {
    /// The settings it was made with.
    public let settings: PhysicsSettings
    /// Display, tile and content sizes.
    public let geometry: ContentGeometry
    /// Counts to units (ranges from HELLO, the mounting from `--axes`).
    public var converter: SampleConverter

    /// The recipe's integrator (run in recipe mode).
    public private(set) var recipe = RecipeIntegrator()
    /// The smooth integrator (run in smooth mode).
    public private(set) var smooth: SmoothIntegrator
    /// The ribbon: stretch, engagement, fire, wiggles.
    public private(set) var ribbon: RibbonDetector
    /// The tick schedule on board time.
    public private(set) var clock: TickClock
    /// The drawer of map markers (nil when the engine was given no items).
    public private(set) var drawer: Drawer?
    /// The pull-out gesture, tracked on every tick.
    public private(set) var gesture: PullOutGesture
    /// The last tick produced (nil before the first).
    public private(set) var lastTick: Tick?
    /// The last sample's time, µs, as the schedule took it: never earlier than
    /// the one before (`ingest` clamps a step back to it); 0 before the first.
    public internal(set) var lastSampleTime: UInt64 = 0
    var lastAccel = Axes3(x: Fixed.zero, y: Fixed.zero, z: Fixed.zero)

    /// - Parameters:
    ///   - settings: validated here; the error names the setting and its range.
    ///   - geometry: display and content sizes (content 512 × 256 for the shipped tile).
    ///   - ribbonArt: the ribbon's alpha mask (Sources/Core/TiltAssets/Resources/ribbon.pgm).
    ///   - converter: raw counts to g, with the mounting's axis mapping.
    ///   - drawerItems: how many items the drawer holds (TiltAssets' item icons);
    ///     0: no drawer, a fire opens nothing.
    public init(
        settings: PhysicsSettings = PhysicsSettings(), geometry: ContentGeometry, ribbonArt: AlphaMask,
        converter: SampleConverter = SampleConverter(), drawerItems: Int = 0
    ) throws(PhysicsSettings.InvalidSetting) {
        try settings.validate()
        self.settings = settings
        self.geometry = geometry
        self.converter = converter
        smooth = SmoothIntegrator(settings: settings)
        ribbon = RibbonDetector(art: ribbonArt, settings: settings, geometry: geometry)
        clock = TickClock(periodMicros: UInt64(settings.tickMicros))
        gesture = PullOutGesture(deadZone: FixedPoint.fixed(settings.deadZone, bits: 32))
        if drawerItems > 0 {
            drawer = Drawer(layout: DrawerLayout(
                itemCount: drawerItems, height: settings.drawerHeight,
                displayWidth: geometry.displayWidth, displayHeight: geometry.displayHeight))
        }
    }

    /// Starts over as if no sample had come (offsets 0, wiggles rescheduled from
    /// the next sample), keeping the settings, the converter and the rest pose.
    public mutating func reset() {
        let rest = smooth.rest
        recipe = RecipeIntegrator()
        smooth = SmoothIntegrator(settings: settings)
        smooth.rest = rest
        ribbon = RibbonDetector(art: ribbon.art, settings: settings, geometry: geometry)
        clock = TickClock(periodMicros: UInt64(settings.tickMicros))
        drawer = drawer.map { Drawer(layout: $0.layout) }
        gesture = PullOutGesture(deadZone: FixedPoint.fixed(settings.deadZone, bits: 32))
        lastTick = nil
        lastSampleTime = 0
        lastAccel = Axes3(x: .zero, y: .zero, z: .zero)
    }

    /// Applies one sample and calls `onTick` for each tick whose time has come, in
    /// order (none, one, or several after a gap, all but the last `superseded`). `onTick` runs while the engine is
    /// being mutated: it must not touch the engine itself (copy what it needs from
    /// the tick).
    public mutating func ingest(_ sample: TimedSample, onTick: (Tick) -> Void) {
        ingest(converter.convert(sample.raw).accel, at: sample.time, onTick: onTick)
    }

    /// Whether a sample at board time `time` would run at least one tick
    /// (`ingest`'s rule), so a caller can skip its per-tick work for the others.
    public func ticks(at time: BoardTime) -> Bool {
        clock.started && max(time.micros, lastSampleTime) >= clock.nextMicros
    }

    /// Applies one decoded reading (iOS convention, g) at board time `time`.
    public mutating func ingest(_ accel: Axes3<Fixed>, at time: BoardTime, onTick: (Tick) -> Void) {
        // The schedule below (TickClock, ribbon, filters) counts whole µs.
        let t = clock.started ? max(time.micros, lastSampleTime) : time.micros
        if !clock.started {
            clock.start(at: t)
            ribbon.start(at: t)
        }
        lastSampleTime = t
        clock.limitCatchUp(before: t)
        while clock.nextMicros < t {
            var tick = runTick()
            tick.superseded = clock.nextMicros <= t  // another tick is due at this sample
            onTick(tick)
        }
        lastAccel = accel
        switch settings.mode {
        case .recipe:
            // Q15.16 → Float32 is exact (at most 21 significant bits).
            recipe.sample(ax: Float(accel.x.raw) / 65536, az: Float(accel.z.raw) / 65536)
        case .smooth:
            smooth.sample(accel, at: t)
        }
        if clock.nextMicros == t { onTick(runTick()) }
    }

    /// Makes the current pose the rest pose (smooth mode; the recipe's rest is
    /// fixed at az = −0.5). Pass the current reading or an average of a few.
    /// Returns false (and changes nothing) when the device lies on its side.
    @discardableResult public mutating func calibrate(to accel: Axes3<Fixed>) -> Bool {
        guard let pose = RestPose(capturing: accel) else { return false }
        smooth.rest = pose
        return true
    }

    /// `calibrate(to:)` with a decoded sample.
    @discardableResult public mutating func calibrate(to sample: MotionSample) -> Bool {
        calibrate(to: sample.accel)
    }

    /// `calibrate(to:)` with the mean of `samples`; false when there are none.
    @discardableResult public mutating func calibrate(averaging samples: some Sequence<MotionSample>) -> Bool {
        var sum = Axes3<Int64>(x: 0, y: 0, z: 0)
        var count: Int64 = 0
        for s in samples {
            sum.x += Int64(s.accel.x.raw)
            sum.y += Int64(s.accel.y.raw)
            sum.z += Int64(s.accel.z.raw)
            count += 1
        }
        guard count > 0 else { return false }
        func mean(_ v: Int64) -> Fixed { Fixed(raw: Int32(FixedPoint.divRound(v, count))) }
        return calibrate(to: Axes3(x: mean(sum.x), y: mean(sum.y), z: mean(sum.z)))
    }

    /// `calibrate(to:)` with the current (low-passed in smooth mode) reading.
    @discardableResult public mutating func calibrateToCurrentPose() -> Bool {
        guard clock.started else { return false }
        switch settings.mode {
        case .recipe:
            return calibrate(to: lastAccel)
        case .smooth:
            let f = smooth.filteredAcceleration
            func q16(_ v: Int64) -> Fixed { Fixed(raw: Int32(clamping: FixedPoint.divRound(v, FixedPoint.q16One))) }
            return calibrate(to: Axes3(x: q16(f.x), y: q16(f.y), z: q16(f.z)))
        }
    }

    /// The viewport (content pixels) the map would show at board time `time`,
    /// between ticks, from the readings so far (`SmoothIntegrator.offsets(at:…)`);
    /// nothing changes. Nil in recipe mode (its 30 ms tick is the book's), before
    /// the first sample, and while the drawer holds the map.
    public func viewport(at time: BoardTime) -> (x: Int, y: Int)? {
        guard settings.mode == .smooth, clock.started, !(drawer?.holdsMap ?? false) else { return nil }
        let t = max(time.micros, lastSampleTime)
        let o = smooth.offsets(at: t, nextTick: clock.nextMicros, periodMicros: clock.periodMicros)
        return (Self.pixel(o.x, geometry.maxViewportX), Self.pixel(o.y, geometry.maxViewportY))
    }

    /// Runs the tick due now and advances the clock.
    mutating func runTick() -> Tick {
        let t = clock.nextMicros
        let hold = drawer?.holdsMap ?? false
        let x: Fixed, y: Fixed, px: Int, py: Int, pastTop: Int64, roll: Int64
        // This tick's tilt from rest (Q32 g) and how far it moves the view (Q16 px).
        let tiltX: Int64, tiltY: Int64, viewStepX: Int64, viewStepY: Int64
        var exact: RecipeOffsets? = nil
        switch settings.mode {
        case .recipe:
            let over: Float
            if hold {
                let moved = recipe.yOffset + recipe.yVelocity
                over = moved < 0 ? -moved : 0
            } else {
                over = recipe.tick()
            }
            exact = RecipeOffsets(x: recipe.xOffset, y: recipe.yOffset)
            x = Self.fixed(recipe.xOffset)
            y = Self.fixed(recipe.yOffset)
            px = Self.pixel(recipe.xOffset, geometry.maxViewportX)
            py = Self.pixel(recipe.yOffset, geometry.maxViewportY)
            pastTop = Int64((Double(over) * 4_294_967_296).rounded())
            roll = Int64(lastAccel.x.raw) << 16
            tiltX = roll
            tiltY = (Int64(lastAccel.z.raw) << 16) + (1 << 31)  // the recipe's rest: az = −0.5
            viewStepX = Self.q16Pixels(recipe.xVelocity, geometry.maxViewportX)
            viewStepY = Self.q16Pixels(recipe.yVelocity, geometry.maxViewportY)
        case .smooth:
            pastTop = smooth.tick(at: t, holdingOffsets: hold)
            x = Fixed(raw: Int32(FixedPoint.divRound(smooth.xOffset, FixedPoint.q16One)))
            y = Fixed(raw: Int32(FixedPoint.divRound(smooth.yOffset, FixedPoint.q16One)))
            px = Self.pixel(smooth.xOffset, geometry.maxViewportX)
            py = Self.pixel(smooth.yOffset, geometry.maxViewportY)
            roll = smooth.rest.roll(ax: smooth.filteredAcceleration.x)
            tiltX = smooth.xTilt
            tiltY = smooth.yTilt
            viewStepX = FixedPoint.mulShift(smooth.xStep, Int64(geometry.maxViewportX), 16)
            viewStepY = FixedPoint.mulShift(smooth.yStep, Int64(geometry.maxViewportY), 16)
        }
        // A finger moves the content: the viewport's opposite.
        let phase = gesture.tick(tiltX: tiltX, tiltY: tiltY, stepX: -viewStepX, stepY: -viewStepY)

        // With the drawer out, the ribbon hangs from it: the grab test looks where it is drawn.
        let ribbonMapLeft = ribbon.c.leftX - px
        var grabViewportX = px
        if let drawer, hold {
            grabViewportX = ribbon.c.leftX - drawer.ribbonLeft(mapLeft: ribbonMapLeft, ribbonWidth: ribbon.art.width)
        }
        let push = drawer?.feedsRibbon ?? true ? pastTop : 0
        let (r, engagedNow) = ribbon.tick(at: t, pastTop: push, viewportX: grabViewportX, viewportY: py, roll: roll)
        if engagedNow && settings.mode == .smooth { smooth.restartYGain() }

        var ribbonX = r.ribbonX, ribbonBottom = r.ribbonBottom
        var drawerView = DrawerView.closed(height: 0), events = DrawerEvents()
        if drawer != nil {
            events = drawer!.tick(
                at: t, fired: r.fired, gesture: phase, direction: gesture.direction,
                viewStepX: viewStepX, viewStepY: viewStepY, ribbonMapLeft: ribbonMapLeft, ribbonWidth: ribbon.art.width,
                viewportX: px, viewportY: py)
            let d = drawer!
            drawerView = d.view
            if d.holdsMap {
                let sway = r.ribbonX - ribbon.c.leftX
                ribbonX = px + d.ribbonLeft(mapLeft: ribbonMapLeft, ribbonWidth: ribbon.art.width) + sway
                if ribbonBottom != 0 { ribbonBottom += py + d.shown }
            }
        }
        let tick = Tick(
            time: BoardTime(micros: t), index: clock.nextIndex, x: x, y: y, recipeOffsets: exact,
            viewportX: px, viewportY: py,
            stretch: Fixed(raw: Int32(clamping: r.stretch)), ribbonX: ribbonX, ribbonBottom: ribbonBottom,
            engaged: r.engaged, fired: r.fired, wiggling: r.wiggling, drawer: drawerView, drawerEvents: events)
        clock.advance()
        lastTick = tick
        return tick
    }

    /// The recipe's Float32 step (offset per tick) as Q16 pixels of `travel`.
    static func q16Pixels(_ step: Float, _ travel: Int) -> Int64 {
        Int64((Double(step) * Double(travel) * 65536).rounded())
    }

    /// A Q32 offset (0...2^32) as whole pixels of `travel`, rounded.
    static func pixel(_ offset: Int64, _ travel: Int) -> Int {
        Int((offset * Int64(travel) + (1 << 31)) >> 32)
    }

    /// The recipe's `off * (contentSize − viewSize)` (CGFloat: double), rounded to whole pixels.
    static func pixel(_ offset: Float, _ travel: Int) -> Int {
        Int((Double(offset) * Double(travel)).rounded())
    }

    static func fixed(_ offset: Float) -> Fixed {
        Fixed(raw: Int32((Double(offset) * 65536).rounded()))
    }
}
