/// A pin on the map: an item dropped at a content position.
public struct Pin: Hashable, Sendable {
    /// The item's index in the drawer's row.
    public var item: Int
    /// Content pixel under the item's centre.
    public var x: Int
    /// Content pixel row under the item's centre.
    public var y: Int

    /// A pin of item `item` at content pixel (`x`, `y`).
    public init(item: Int, x: Int, y: Int) {
        self.item = item
        self.x = x
        self.y = y
    }
}

/// What the drawer looks like after a tick: what docs/protocol.md's DRAWER
/// frame carries (the pins aside).
public struct DrawerView: Hashable, Sendable {
    /// An item being dragged, at display pixels (its icon's top-left corner).
    public struct Dragged: Hashable, Sendable {
        /// The item's index in the row.
        public var item: Int
        /// The icon's left edge, display px (negative: partly off screen).
        public var left: Int
        /// The icon's top edge, display px.
        public var top: Int

        /// Item `item` with its icon's top-left corner at (`left`, `top`).
        public init(item: Int, left: Int, top: Int) {
            self.item = item
            self.left = left
            self.top = top
        }
    }

    /// The strip's rows when fully open (0: no drawer).
    public var height: Int
    /// Rows showing now, 0...height (0: closed).
    public var shown: Int
    /// Row pixel at the display's left edge.
    public var scroll: Int
    /// The item under the display's centre column, marked; nil when none.
    public var current: Int?
    /// The item being dragged and where; nil when none.
    public var dragged: Dragged?

    /// A view from its parts.
    public init(height: Int, shown: Int, scroll: Int, current: Int?, dragged: Dragged?) {
        self.height = height
        self.shown = shown
        self.scroll = scroll
        self.current = current
        self.dragged = dragged
    }

    /// Closed: nothing drawn.
    public static func closed(height: Int) -> DrawerView {
        DrawerView(height: height, shown: 0, scroll: 0, current: nil, dragged: nil)
    }

    /// Nothing of the drawer on screen.
    public var isClosed: Bool { shown == 0 && dragged == nil }
}

/// What happened to the drawer on a tick.
public struct DrawerEvents: Hashable, Sendable {
    /// A fire opened it (it starts sliding down).
    public var opened = false
    /// A fire or a drop closed it (it starts sliding up).
    public var closed = false
    /// A "down" gesture pulled this item out.
    public var pulledOut: Int?
    /// The dragged item was dropped: a new pin.
    public var dropped: Pin?

    /// Nothing happened.
    public init() {}

    /// Nothing happened on the tick.
    public var isEmpty: Bool { !opened && !closed && pulledOut == nil && dropped == nil }
}
