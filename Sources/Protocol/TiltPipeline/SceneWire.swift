import TiltPhysics
import WireProtocol

/// The DRAWER and PIN frames sent after one tick's OFFSETS (either may be
/// absent), with their wire bytes stored inline so producing them never
/// allocates: at most 16 + 11 bytes, delimiters included.
public struct SceneWire: Hashable, Sendable {
    /// Bytes of inline storage (the two frames need at most 27).
    public static let capacity = 32
    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// Bytes in use.
    public private(set) var count = 0
    /// The DRAWER frame sent, if any.
    public let drawer: DrawerFrame?
    /// The PIN frame sent, if any.
    public let pin: PinFrame?

    /// Encodes the frames (DRAWER first) into inline storage.
    public init(drawer: DrawerFrame?, pin: PinFrame?) {
        self.drawer = drawer
        self.pin = pin
        if let drawer { append(drawer.payload) }
        if let pin { append(pin.payload) }
    }

    private mutating func append(_ payload: PayloadBuffer) {
        let start = count
        var written = 0
        payload.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &storage) { destination in
                let room = UnsafeMutableRawBufferPointer(rebasing: destination[start...])
                written = COBS.encode(source, into: room)
                room[written] = WireFormat.delimiter
            }
        }
        count = start + written + 1
    }

    /// The wire bytes, for writing to the port.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var copy = storage
        let count = self.count
        return try Swift.withUnsafeBytes(of: &copy) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// The wire bytes as an array (tests, tools).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Equal when the frames are (the bytes follow from them).
    public static func == (a: SceneWire, b: SceneWire) -> Bool { a.drawer == b.drawer && a.pin == b.pin }
    /// Hashes the frames alone, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(drawer)
        hasher.combine(pin)
    }
}

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
