/// DRAWER (0x14), host → board: the drawer, the dragged item and how many pins
/// to draw, for one physics tick (docs/protocol.md; docs/display.md draws it).
public struct DrawerFrame: WireFrame {
    /// The type byte it carries on the wire: 0x14 (docs/protocol.md).
    public static let frameType = FrameType.drawer
    /// "No item" in `current` and `dragItem`.
    public static let noItem: UInt8 = 0xFF

    /// The drawer's rows when fully open.
    public var height: UInt8
    /// Rows showing now (0: closed).
    public var shown: UInt8
    /// The drawer row's pixel at the display's left edge.
    public var scroll: Int16
    /// The marked item, or `noItem`.
    public var current: UInt8
    /// The dragged item, or `noItem`, and its icon's top-left corner in display pixels.
    public var dragItem: UInt8
    /// Left edge of the dragged icon, display pixels (may be negative: partly off screen).
    public var dragLeft: Int16
    /// Top edge of the dragged icon, display pixels (may be negative).
    public var dragTop: Int16
    /// Pin slots 0 ..< pinCount are drawn.
    public var pinCount: UInt8

    /// A DRAWER frame from its fields.
    public init(height: UInt8, shown: UInt8, scroll: Int16, current: UInt8, dragItem: UInt8, dragLeft: Int16, dragTop: Int16, pinCount: UInt8) {
        self.height = height
        self.shown = shown
        self.scroll = scroll
        self.current = current
        self.dragItem = dragItem
        self.dragLeft = dragLeft
        self.dragTop = dragTop
        self.pinCount = pinCount
    }

    /// Reads the 11-byte body: height, shown, scroll (i16 LE), current, drag item, drag left and top (i16 LE), pin count.
    public init(body: UnsafeRawBufferPointer) {
        self.init(
            height: body[0], shown: body[1], scroll: Int16(bitPattern: body.u16(2)), current: body[4], dragItem: body[5],
            dragLeft: Int16(bitPattern: body.u16(6)), dragTop: Int16(bitPattern: body.u16(8)), pinCount: body[10])
    }

    /// Appends the 11-byte body in the order `init(body:)` reads it.
    public func writeBody(to payload: inout PayloadBuffer) {
        payload.append(height)
        payload.append(shown)
        payload.appendLittleEndian(UInt16(bitPattern: scroll))
        payload.append(current)
        payload.append(dragItem)
        payload.appendLittleEndian(UInt16(bitPattern: dragLeft))
        payload.appendLittleEndian(UInt16(bitPattern: dragTop))
        payload.append(pinCount)
    }

    /// Nothing of the drawer on screen and no pins: what a board shows before any DRAWER.
    public var isIdle: Bool { shown == 0 && dragItem == Self.noItem && pinCount == 0 }
}

/// PIN (0x15), host → board: one slot of the board's pin table.
public struct PinFrame: WireFrame {
    /// The type byte it carries on the wire: 0x15 (docs/protocol.md).
    public static let frameType = FrameType.pin

    /// 0 ..< 32; other slots are ignored.
    public var slot: UInt8
    /// The item's icon (an index into the drawer's items).
    public var item: UInt8
    /// Content pixel under the icon's centre.
    public var x: UInt16
    /// Content pixel row under the icon's centre.
    public var y: UInt16

    /// A PIN frame from its fields.
    public init(slot: UInt8, item: UInt8, x: UInt16, y: UInt16) {
        self.slot = slot
        self.item = item
        self.x = x
        self.y = y
    }

    /// Reads the 6-byte body: slot, item, x and y (u16 LE).
    public init(body: UnsafeRawBufferPointer) {
        self.init(slot: body[0], item: body[1], x: body.u16(2), y: body.u16(4))
    }

    /// Appends the 6-byte body in the order `init(body:)` reads it.
    public func writeBody(to payload: inout PayloadBuffer) {
        payload.append(slot)
        payload.append(item)
        payload.appendLittleEndian(x)
        payload.appendLittleEndian(y)
    }
}
