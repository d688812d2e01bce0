/// What the board draws besides the map and the ribbon (docs/display.md, "The
/// drawer, the dragged item, the pins"): the fields of the DRAWER frame and the
/// board's table of pins that PIN frames fill (docs/protocol.md). All inline:
/// copying one or changing a pin never allocates.
public struct DrawerScene: Hashable, Sendable {
    /// Pin slots the board keeps.
    public static let pinSlots = 32
    /// "No item" in the item fields.
    public static let noItem: UInt8 = 0xFF

    /// The drawer's rows when fully open.
    public var height: UInt8 = 0
    /// Rows showing (0: closed, nothing drawn); more than `height` counts as `height`.
    public var shown: UInt8 = 0
    /// Row pixel at the display's left edge.
    public var scroll: Int16 = 0
    /// The marked item, or `noItem`.
    public var current: UInt8 = noItem
    /// The dragged item, or `noItem`; its icon's top-left corner in display pixels.
    public var dragItem: UInt8 = noItem
    /// The dragged icon's left edge, display px (negative: partly off screen).
    public var dragLeft: Int16 = 0
    /// The dragged icon's top edge, display px.
    public var dragTop: Int16 = 0
    /// Slots 0 ..< pinCount are drawn (at most `pinSlots`).
    public var pinCount: UInt8 = 0
    var slots = PinSlots()

    /// Nothing to draw: no drawer, no dragged item, no pins.
    public init() {}

    /// Pin slot `slot` (0 ..< 32); a slot never set holds item 0 at (0, 0).
    public subscript(pin slot: Int) -> ScenePin {
        get { slots[slot] }
        set { slots[slot] = newValue }
    }

    /// The pins drawn: slots 0 ..< min(pinCount, 32).
    public var drawnPinCount: Int { min(Int(pinCount), Self.pinSlots) }

    /// The drawer fields only (the pin table as it is).
    public mutating func setDrawer(
        height: UInt8, shown: UInt8, scroll: Int16, current: UInt8, dragItem: UInt8, dragLeft: Int16, dragTop: Int16,
        pinCount: UInt8
    ) {
        self.height = height
        self.shown = shown
        self.scroll = scroll
        self.current = current
        self.dragItem = dragItem
        self.dragLeft = dragLeft
        self.dragTop = dragTop
        self.pinCount = pinCount
    }

    /// Closed, no drag, no pins drawn, every slot cleared: what a board shows
    /// after a reset or when the host went quiet.
    public static let empty = DrawerScene()
}

/// One pin slot: an item at a content position (the icon's centre).
public struct ScenePin: Hashable, Sendable {
    /// The item's icon (index into `ItemArt`).
    public var item: UInt8
    /// Content column under the icon's centre, px.
    public var x: UInt16
    /// Content row under the icon's centre, px.
    public var y: UInt16

    /// Item `item` at content pixel (`x`, `y`).
    public init(item: UInt8, x: UInt16, y: UInt16) {
        self.item = item
        self.x = x
        self.y = y
    }
}

/// 32 pin slots stored inline, each packed in a UInt64 (item, x, y).
struct PinSlots: Hashable, Sendable {
    private var storage: (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    subscript(slot: Int) -> ScenePin {
        get {
            precondition(slot >= 0 && slot < DrawerScene.pinSlots)
            let packed = withUnsafeBytes(of: storage) { $0.load(fromByteOffset: slot * 8, as: UInt64.self) }
            return ScenePin(item: UInt8(truncatingIfNeeded: packed), x: UInt16(truncatingIfNeeded: packed >> 8),
                            y: UInt16(truncatingIfNeeded: packed >> 24))
        }
        set {
            precondition(slot >= 0 && slot < DrawerScene.pinSlots)
            let packed = UInt64(newValue.item) | UInt64(newValue.x) << 8 | UInt64(newValue.y) << 24
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: packed, toByteOffset: slot * 8, as: UInt64.self) }
        }
    }

    static func == (a: PinSlots, b: PinSlots) -> Bool {
        withUnsafeBytes(of: a.storage) { x in withUnsafeBytes(of: b.storage) { y in x.elementsEqual(y) } }
    }

    func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: storage) { hasher.combine(bytes: $0) }
    }
}
