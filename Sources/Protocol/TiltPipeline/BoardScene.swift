import TiltDisplay
import WireProtocol

/// What the board was told to draw: the last OFFSETS and the drawer scene the
/// DRAWER and PIN frames built up, applied as the firmware applies them
/// (docs/protocol.md). `DisplayMirror` renders it.
public struct BoardScene: Hashable, Sendable {
    /// The last OFFSETS sent (viewport and ribbon position); nil before the first.
    public var offsets: OffsetsFrame?
    /// The drawer and its pins as DRAWER and PIN frames set them.
    public var drawer = DrawerScene()

    /// Nothing sent yet: no OFFSETS, drawer closed, no pins.
    public init() {}

    /// A DRAWER frame: replaces the drawer fields, keeps the pin table.
    public mutating func apply(_ frame: DrawerFrame) {
        drawer.setDrawer(
            height: frame.height, shown: frame.shown, scroll: frame.scroll, current: frame.current, dragItem: frame.dragItem,
            dragLeft: frame.dragLeft, dragTop: frame.dragTop, pinCount: frame.pinCount)
    }

    /// A PIN frame: fills one slot (slots past the table are ignored, as the board ignores them).
    public mutating func apply(_ frame: PinFrame) {
        guard Int(frame.slot) < DrawerScene.pinSlots else { return }
        drawer[pin: Int(frame.slot)] = ScenePin(item: frame.item, x: frame.x, y: frame.y)
    }

    /// Both frames of a tick, in the order they were written.
    public mutating func apply(_ wire: SceneWire) {
        if let frame = wire.drawer { apply(frame) }
        if let frame = wire.pin { apply(frame) }
    }
}
