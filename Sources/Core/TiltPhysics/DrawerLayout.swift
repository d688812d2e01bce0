/// Where the drawer's parts lie (docs/display.md, "The drawer"): a strip of
/// `height` rows across the top of the display holding a row of slots,
/// `slotPitch` pixels apart: one per item, then the ribbon's slot at the row's
/// right end. Row pixel 0 is the first slot's left edge; `scroll` is the row
/// pixel at the display's left edge.
public struct DrawerLayout: Hashable, Sendable {
    /// Item icons are square, this many pixels.
    public static let iconSize = 16
    /// Slot to slot, row pixels.
    public static let slotPitch = 20
    /// An icon's left edge within its slot.
    public static let iconInset = 2
    /// The slide down (open) or up (close), µs: the recipe's 0.3 s animation.
    public static let slideMicros: Int64 = 300_000
    /// The smallest drawer: icon, marker and border rows (docs/display.md).
    public static let minimumHeight = 22

    /// Items in the row (the ribbon's slot comes after them).
    public let itemCount: Int
    /// The strip's rows when fully open.
    public let height: Int
    /// Display width, pixels (128).
    public let displayWidth: Int
    /// Display height, pixels (64).
    public let displayHeight: Int

    /// A layout for `itemCount` items in a strip `height` rows high (`minimumHeight` or more to fit) on a display of the given size, pixels.
    public init(itemCount: Int, height: Int, displayWidth: Int, displayHeight: Int) {
        self.itemCount = itemCount
        self.height = height
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
    }

    /// The ribbon's slot: right of the last item.
    public var ribbonSlot: Int { itemCount }

    /// Row pixel of slot k's centre.
    public func slotCentre(_ k: Int) -> Int { k * Self.slotPitch + Self.slotPitch / 2 }

    /// Row pixel of item k's icon's left edge.
    public func iconLeft(_ k: Int) -> Int { k * Self.slotPitch + Self.iconInset }

    /// The scroll range: from the first item's centre under the display's
    /// centre column to the ribbon slot's.
    public var scrollRange: ClosedRange<Int> {
        (slotCentre(0) - displayWidth / 2)...(slotCentre(ribbonSlot) - displayWidth / 2)
    }

    /// The slot under the display's centre column at `scroll`, nil past either end.
    public func slot(atScroll scroll: Int) -> Int? {
        let p = scroll + displayWidth / 2
        guard p >= 0 else { return nil }
        let k = p / Self.slotPitch
        return k <= ribbonSlot ? k : nil
    }

    /// The item under the display's centre column (the current one), nil when
    /// the ribbon's slot or nothing is.
    public func item(atScroll scroll: Int) -> Int? {
        slot(atScroll: scroll).flatMap { $0 < itemCount ? $0 : nil }
    }
}
