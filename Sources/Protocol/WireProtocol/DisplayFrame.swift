/// DISPLAY (0x18), host → board: the display choice kept in the board's
/// EEPROM (docs/protocol.md, "DISPLAY"; `tiltserial setup`). The board
/// carries it out at once and answers with PARTS. Older firmware skips it as
/// an unknown type and never answers.
public struct DisplayFrame: WireFrame {
    /// The type byte it carries on the wire: 0x18 (docs/protocol.md).
    public static let frameType = FrameType.display

    /// What the board does with the choice (the frame's first byte).
    public enum Operation: UInt8, CaseIterable, Hashable, Sendable {
        /// Begin the display as `kind`, not stored, and show the test pattern.
        case tryKind = 0
        /// Store `kind` in the EEPROM and begin the display as it; the pattern goes.
        case store = 1
        /// Forget the stored kind and detect the display again; the pattern goes.
        case clear = 2
        /// The pattern goes; back to the stored kind, or to detection.
        case end = 3
    }

    /// The operation byte as sent (`Operation`; the board answers other values with PARTS alone).
    public var operation: UInt8
    /// The display kind for try and store (PARTS' numbering: 0 SSD1306 128×64,
    /// 1 SH1106 128×64, 2 SSD1306 128×32); zero for the others.
    public var kind: UInt8

    /// A DISPLAY from its two bytes as sent.
    public init(operation: UInt8, kind: UInt8) {
        self.operation = operation
        self.kind = kind
    }
    /// A DISPLAY doing `operation` with `kind` (ignored by clear and end: sent as 0).
    public init(_ operation: Operation, kind: UInt8 = 0) {
        self.init(operation: operation.rawValue, kind: operation == .tryKind || operation == .store ? kind : 0)
    }
    /// Reads the 2-byte body: operation, kind.
    public init(body: UnsafeRawBufferPointer) { self.init(operation: body[0], kind: body[1]) }
    /// Appends operation and kind.
    public func writeBody(to payload: inout PayloadBuffer) {
        payload.append(operation)
        payload.append(kind)
    }
}
