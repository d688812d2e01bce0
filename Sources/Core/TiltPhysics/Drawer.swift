/// The drawer of map markers (docs/physics.md, "The drawer"): the pull
/// control's demo drawer (Recipe 2-8) holding Recipe 1-12's scroller.
///
/// - A ribbon fire opens it: it slides down over 0.3 s. A second fire closes it.
///   While it is not fully closed the map holds still.
/// - Open, sideways tilt scrolls its row with the map's x integrator; the item
///   under the display's centre column is the current one. The ribbon hangs
///   from the row's right end, below the strip: pulled there, it fires and
///   closes the drawer.
/// - A gesture that started with the drawer open and qualifies as "down"
///   (`SwipeRule`) while an item is current pulls a copy of it out: it appears
///   below the strip and follows the rest of the gesture (the row stops
///   scrolling). When the gesture ends it is dropped: a pin at the content
///   position under its centre, and the drawer closes.
///
/// Positions are Q16 pixels; time is board µs. No allocation.
public struct Drawer: Hashable, Sendable {
    /// Where the drawer is in its life.
    public enum Phase: Hashable, Sendable {
        /// Fully up; the map scrolls.
        case closed
        /// Sliding; `from` is the slide's progress (µs of `slideMicros`) at `startedAt`.
        case sliding(opening: Bool, from: Int64, startedAt: UInt64)
        /// Fully down; sideways tilt scrolls the row.
        case open
        /// An item (index in the row) pulled out and following the gesture.
        case dragging(item: Int)
    }

    /// Where its parts lie (strip height, slots, display size).
    public let layout: DrawerLayout
    /// Closed, sliding, open or dragging.
    public private(set) var phase = Phase.closed
    /// Slide progress, 0 (closed) ... `slideMicros` (open).
    public private(set) var progress: Int64 = 0
    /// Row pixel at the display's left edge, Q16.
    public private(set) var scroll: Int64 = 0
    /// The dragged icon's top-left corner, display px, Q16.
    public private(set) var dragX: Int64 = 0
    /// The dragged icon's top edge, display px, Q16.
    public private(set) var dragY: Int64 = 0
    /// The gesture under way started with the drawer open: only such a gesture pulls out.
    public private(set) var eligible = false

    /// A closed drawer laid out by `layout`.
    public init(layout: DrawerLayout) {
        self.layout = layout
    }

    /// The map holds still unless the drawer is fully closed.
    public var holdsMap: Bool { phase != .closed }

    /// The ribbon gets the push of the tilt (not while an item is dragged).
    public var feedsRibbon: Bool {
        if case .dragging = phase { return false }
        return true
    }

    /// Rows showing.
    public var shown: Int {
        Int((Int64(layout.height) * progress + DrawerLayout.slideMicros / 2) / DrawerLayout.slideMicros)
    }

    /// The scroll in whole pixels, as drawn.
    public var scrollPixels: Int { Self.pixels(scroll) }

    /// A Q16 position as whole pixels, rounded half up.
    static func pixels(_ q16: Int64) -> Int { Int((q16 + (1 << 15)) >> 16) }

    /// The drawer as drawn now.
    public var view: DrawerView {
        if phase == .closed { return .closed(height: layout.height) }
        var dragged: DrawerView.Dragged?
        if case .dragging(let item) = phase {
            dragged = DrawerView.Dragged(item: item, left: Self.pixels(dragX), top: Self.pixels(dragY))
        }
        let s = scrollPixels
        return DrawerView(height: layout.height, shown: shown, scroll: s, current: layout.item(atScroll: s), dragged: dragged)
    }

    /// Where the ribbon's art has its left column, in display px (sway aside):
    /// at `mapLeft` (where the map puts it) with the drawer closed, at the row's
    /// ribbon slot with it open, and in between while it slides.
    public func ribbonLeft(mapLeft: Int, ribbonWidth: Int) -> Int {
        let rowLeft = layout.slotCentre(layout.ribbonSlot) - scrollPixels - ribbonWidth / 2
        let h = layout.height
        guard h > 0 else { return mapLeft }
        let d = (rowLeft - mapLeft) * shown
        return mapLeft + (d >= 0 ? d / h : -((-d) / h))
    }

    /// One tick at board time `t`.
    /// - Parameters:
    ///   - fired: the ribbon fired on this tick.
    ///   - gesture: what this tick did to the pull-out gesture, and its direction now.
    ///   - viewStep: how far this tick's tilt would move the viewport, Q16 px (x, y).
    ///   - ribbonMapLeft: the ribbon's display left column where the map puts it.
    ///   - viewport: the (held) viewport, content px, for the drop.
    public mutating func tick(
        at t: UInt64, fired: Bool, gesture: PullOutGesture.Phase, direction: PullOutGesture.Direction?,
        viewStepX: Int64, viewStepY: Int64, ribbonMapLeft: Int, ribbonWidth: Int, viewportX: Int, viewportY: Int
    ) -> DrawerEvents {
        var events = DrawerEvents()
        slide(to: t)
        if gesture == .started { eligible = phase == .open }
        if gesture == .idle || gesture == .ended { if case .dragging = phase {} else { eligible = false } }

        if fired {
            switch phase {
            case .dragging:
                break  // the ribbon gets no push while dragging: cannot happen
            case .closed, .sliding(opening: false, _, _):
                if phase == .closed {
                    // The row starts where the ribbon hangs now: it does not jump.
                    let s0 = layout.slotCentre(layout.ribbonSlot) - ribbonWidth / 2 - ribbonMapLeft
                    scroll = Int64(min(max(s0, layout.scrollRange.lowerBound), layout.scrollRange.upperBound)) << 16
                }
                phase = .sliding(opening: true, from: progress, startedAt: t)
                events.opened = true
            case .open, .sliding(opening: true, _, _):
                phase = .sliding(opening: false, from: progress, startedAt: t)
                events.closed = true
            }
            eligible = false  // the pull that fired is no pull-out
            return events
        }

        switch phase {
        case .open:
            let range = layout.scrollRange
            scroll = min(max(scroll + viewStepX, Int64(range.lowerBound) << 16), Int64(range.upperBound) << 16)
            if eligible, gesture == .started || gesture == .moving, direction == .down,
               let item = layout.item(atScroll: scrollPixels) {
                phase = .dragging(item: item)
                dragX = Int64(layout.iconLeft(item) - scrollPixels) << 16
                dragY = Int64(layout.height) << 16
                clampDrag()
                events.pulledOut = item
            }
        case .dragging(let item):
            if gesture == .moving {
                // The item follows the finger: the content's motion, the viewport's opposite.
                dragX -= viewStepX
                dragY -= viewStepY
                clampDrag()
            } else {
                let half = DrawerLayout.iconSize / 2
                let x = viewportX + Self.pixels(dragX) + half
                let y = viewportY + Self.pixels(dragY) + half
                events.dropped = Pin(item: item, x: x, y: y)
                phase = .sliding(opening: false, from: progress, startedAt: t)
                events.closed = true
                eligible = false
            }
        case .closed, .sliding:
            break
        }
        return events
    }

    /// Advances a slide to `t`; a finished slide leaves the drawer open or closed.
    mutating func slide(to t: UInt64) {
        guard case .sliding(let opening, let from, let start) = phase else { return }
        let elapsed = Int64(clamping: t >= start ? t - start : 0)
        let total = DrawerLayout.slideMicros
        if opening {
            progress = elapsed >= total - from ? total : from + elapsed
            if progress == total { phase = .open }
        } else {
            progress = elapsed >= from ? 0 : from - elapsed
            if progress == 0 {
                phase = .closed
                scroll = 0
            }
        }
    }

    /// Keeps the dragged icon on the display.
    mutating func clampDrag() {
        let maxX = Int64(max(0, layout.displayWidth - DrawerLayout.iconSize)) << 16
        let maxY = Int64(max(0, layout.displayHeight - DrawerLayout.iconSize)) << 16
        dragX = min(max(dragX, 0), maxX)
        dragY = min(max(dragY, 0), maxY)
    }
}
