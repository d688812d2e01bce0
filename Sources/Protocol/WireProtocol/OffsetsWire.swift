/// One OFFSETS frame and its wire bytes, encoded once when the tick makes it
/// (at most 15 bytes: a 13-byte payload, one COBS code byte, the delimiter).
public struct OffsetsWire: Hashable, Sendable {
    /// Bytes counted for one OFFSETS on the line (the doze's chase margin):
    /// 16, one more than the 15 it takes (a 13-byte payload, a COBS code byte,
    /// the delimiter), as when it had 16 bytes of inline storage of its own.
    public static let capacity = 16
    /// The frame these bytes encode.
    public let frame: OffsetsFrame
    /// The bytes to write to the port.
    public let wire: WireBytes

    /// Encodes `frame`.
    public init(_ frame: OffsetsFrame) {
        self.frame = frame
        wire = WireBytes(frame)
    }

    /// The wire bytes as an array (tests, tools).
    public var bytes: [UInt8] { wire.bytes }

    /// Equal when the frames are (the bytes follow from the frame).
    public static func == (a: OffsetsWire, b: OffsetsWire) -> Bool { a.frame == b.frame }
    /// Hashes the frame alone, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(frame) }
}

/// The DRAWER and PIN frames sent after one tick's OFFSETS (either may be
/// absent) and their wire bytes, DRAWER first (at most 16 + 11 bytes).
public struct SceneWire: Hashable, Sendable {
    /// The DRAWER frame sent, if any.
    public let drawer: DrawerFrame?
    /// The PIN frame sent, if any.
    public let pin: PinFrame?
    /// The bytes to write to the port.
    public let wire: WireBytes

    /// Encodes the frames (DRAWER first).
    public init(drawer: DrawerFrame?, pin: PinFrame?) {
        self.drawer = drawer
        self.pin = pin
        var wire = WireBytes()
        if let drawer { wire.append(drawer) }
        if let pin { wire.append(pin) }
        self.wire = wire
    }

    /// The wire bytes as an array (tests, tools).
    public var bytes: [UInt8] { wire.bytes }

    /// Equal when the frames are (the bytes follow from them).
    public static func == (a: SceneWire, b: SceneWire) -> Bool { a.drawer == b.drawer && a.pin == b.pin }
    /// Hashes the frames alone, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(drawer)
        hasher.combine(pin)
    }
}
