import TiltPhysics
import WireProtocol

extension DrawerFrame {
    /// The DRAWER frame for a tick's drawer and the host's pin count (fields clamped to the wire's sizes).
    public init(_ view: DrawerView, pinCount: Int) {
        self.init(
            height: UInt8(clamping: view.height), shown: UInt8(clamping: view.shown), scroll: Int16(clamping: view.scroll),
            current: view.current.map { UInt8(clamping: $0) } ?? Self.noItem,
            dragItem: view.dragged.map { UInt8(clamping: $0.item) } ?? Self.noItem,
            dragLeft: Int16(clamping: view.dragged?.left ?? 0), dragTop: Int16(clamping: view.dragged?.top ?? 0),
            pinCount: UInt8(clamping: pinCount))
    }
}

extension PinFrame {
    /// The PIN frame putting `pin` in `slot`.
    public init(slot: Int, _ pin: Pin) {
        self.init(slot: UInt8(clamping: slot), item: UInt8(clamping: pin.item), x: UInt16(clamping: pin.x), y: UInt16(clamping: pin.y))
    }
}
