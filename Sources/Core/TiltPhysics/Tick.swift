import TiltCore

/// Everything one physics tick produced: what docs/protocol.md's OFFSETS frame
/// carries, plus the normalized offsets and the ribbon's state.
public struct Tick: Hashable, Sendable {
    /// The tick's board time: t0 + index × tick period.
    public var time: BoardTime
    /// k for the tick at t0 + k × period (1 for the first; skips after a long gap).
    public var index: UInt64
    /// Normalized offsets, 0...1, Q15.16.
    public var x: Fixed
    /// Normalized y offset, 0...1, Q15.16.
    public var y: Fixed
    /// The recipe's exact Float32 offsets (recipe mode only; nil in smooth mode).
    public var recipeOffsets: RecipeOffsets?
    /// The viewport: content column at the display's left edge, row at its top.
    public var viewportX: Int
    /// Content row at the display's top edge, px.
    public var viewportY: Int
    /// Ribbon pull (stretch plus wiggle), points, Q15.16.
    public var stretch: Fixed
    /// Content column of the ribbon art's left edge.
    public var ribbonX: Int
    /// Content row one past the ribbon art's last row (0 = hidden).
    public var ribbonBottom: Int
    /// A pull is engaged (being stretched).
    public var engaged: Bool
    /// The ribbon fired on this tick.
    public var fired: Bool
    /// A discoverability wiggle is under way.
    public var wiggling: Bool
    /// The drawer as drawn after this tick (closed, height 0, without a drawer).
    public var drawer: DrawerView
    /// What happened to the drawer on this tick.
    public var drawerEvents: DrawerEvents
    /// A later tick is due at the same sample (the engine catching up after a
    /// gap in the samples): this tick's view is out of date before a board
    /// could draw it, so the host sends only the last one's.
    public var superseded = false

    /// `time` in µs since the board started: what the JSON lines' `t_us` and
    /// the hooks' `TILT_T_US` carry.
    public var timeMicros: UInt64 { time.micros }

    /// A tick with every field given (the engine makes them; tests build their own).
    public init(
        time: BoardTime, index: UInt64, x: Fixed, y: Fixed, recipeOffsets: RecipeOffsets?,
        viewportX: Int, viewportY: Int, stretch: Fixed, ribbonX: Int, ribbonBottom: Int,
        engaged: Bool, fired: Bool, wiggling: Bool,
        drawer: DrawerView = .closed(height: 0), drawerEvents: DrawerEvents = DrawerEvents()
    ) {
        self.time = time
        self.index = index
        self.x = x
        self.y = y
        self.recipeOffsets = recipeOffsets
        self.viewportX = viewportX
        self.viewportY = viewportY
        self.stretch = stretch
        self.ribbonX = ribbonX
        self.ribbonBottom = ribbonBottom
        self.engaged = engaged
        self.fired = fired
        self.wiggling = wiggling
        self.drawer = drawer
        self.drawerEvents = drawerEvents
    }

    /// Doubles for JSON and logs at the edges.
    public var xValue: Double { Double(x.raw) / 65536 }
    /// `y` as a Double, 0...1.
    public var yValue: Double { Double(y.raw) / 65536 }
    /// `stretch` as a Double, points.
    public var stretchValue: Double { Double(stretch.raw) / 65536 }
}

/// The recipe integrator's offsets, bit for bit.
public struct RecipeOffsets: Hashable, Sendable {
    /// The recipe's `xoff`, 0...1.
    public var x: Float
    /// The recipe's `yoff`, 0...1.
    public var y: Float
    /// The offsets as given.
    public init(x: Float, y: Float) {
        self.x = x
        self.y = y
    }
}
