import TiltPhysics
import WireProtocol

/// Decides which DRAWER and PIN frames follow a tick's OFFSETS
/// (docs/protocol.md, "Sending the drawer and the pins"):
/// - DRAWER on every tick while the drawer shows, an item is dragged or pins
///   exist, and on `repeats` ticks after that stopped (a board that missed the
///   last change still catches up); never when nothing was ever shown, so a
///   host that does not use the drawer sends exactly what it sent before;
/// - one PIN per tick while pins exist: the lowest slot changed since it was
///   last sent, else the next slot in turn, so a board that lost its table (a
///   reset, a replug, a host timeout) has it back within 32 ticks.
struct SceneSync: Hashable, Sendable {
    /// Idle DRAWER frames sent after the drawer closed: about a second of ticks.
    static let repeats = 33

    var repeatsLeft = 0
    var everSent = false
    var cursor = 0

    /// The board may have lost what it was told (HELLO, a replug).
    mutating func restart(pins: inout PinBoard) {
        if everSent { repeatsLeft = Self.repeats }
        pins.markAllChanged()
        cursor = 0
    }

    /// The frames to send after this tick's OFFSETS; nil when none.
    mutating func frames(for view: DrawerView, pins: inout PinBoard) -> SceneWire? {
        let drawer = DrawerFrame(view, pinCount: pins.count)
        var sendDrawer = false
        if !drawer.isIdle {
            sendDrawer = true
            everSent = true
            repeatsLeft = Self.repeats
        } else if repeatsLeft > 0 {
            sendDrawer = true
            repeatsLeft -= 1
        }
        var pin: PinFrame?
        if !pins.isEmpty {
            let slot: Int
            if let changed = pins.takeChangedSlot() {
                slot = changed
            } else {
                slot = cursor % pins.count
                cursor = slot + 1
            }
            pin = PinFrame(slot: slot, pins.pins[slot])
        }
        guard sendDrawer || pin != nil else { return nil }
        return SceneWire(drawer: sendDrawer ? drawer : nil, pin: pin)
    }
}
