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
        /// Store the display's I2C clock (`kind` carries a `DisplayClock`) and
        /// begin the display at it; the pattern goes. Older firmware answers
        /// with PARTS alone (its clock bits stay 0: 400 kHz).
        case setClock = 4
    }

    /// The operation byte as sent (`Operation`; the board answers other values with PARTS alone).
    public var operation: UInt8
    /// The display kind for try and store (PARTS' numbering: 0 SSD1306 128×64,
    /// 1 SH1106 128×64, 2 SSD1306 128×32), the clock for set-clock; zero for the others.
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
    /// A DISPLAY storing the display's clock.
    public init(setClock clock: DisplayClock) {
        self.init(operation: Operation.setClock.rawValue, kind: clock.rawValue)
    }
    /// Reads the 2-byte body: operation, kind.
    public init(body: UnsafeRawBufferPointer) { self.init(operation: body[0], kind: body[1]) }
    /// Appends operation and kind.
    public func writeBody(to payload: inout PayloadBuffer) {
        payload.append(operation)
        payload.append(kind)
    }
}

/// The display's I2C clock, a board setting (DISPLAY set-clock, PARTS flags
/// bits 2–3): 400 kHz is the SSD1306 datasheet's; many modules take 800 kHz
/// or 1 MHz with short wires, an opt-in (docs/hardware.md); 100 kHz is where
/// the firmware goes by itself when the display does not answer at 400 kHz.
/// The sensor stays at 400 kHz. In order of speed (`allCases`); the wire's
/// numbers are the order the settings came in.
public enum DisplayClock: UInt8, CaseIterable, Hashable, Sendable {
    /// Standard mode: for a bus too slow for fast mode (weak pull-ups, long
    /// wires); older firmware never runs it and refuses to store it.
    case kilohertz100 = 3
    /// The SSD1306 datasheet's fast mode, and the sensor's; what older firmware runs.
    case kilohertz400 = 0
    /// Fast mode's double (TWBR 2 on a 16 MHz board).
    case kilohertz800 = 1
    /// Fast-mode plus (TWBR 0): the most an ATmega328P at 16 MHz does without the prescaler's help.
    case megahertz1 = 2

    /// SCL, Hz.
    public var hertz: Int {
        switch self {
        case .kilohertz100: 100_000
        case .kilohertz400: 400_000
        case .kilohertz800: 800_000
        case .megahertz1: 1_000_000
        }
    }

    /// For people: "100 kHz", "400 kHz", "800 kHz", "1 MHz".
    public var label: String {
        switch self {
        case .kilohertz100: "100 kHz"
        case .kilohertz400: "400 kHz"
        case .kilohertz800: "800 kHz"
        case .megahertz1: "1 MHz"
        }
    }

    /// For the command line: "100k", "400k", "800k", "1m".
    public var name: String {
        switch self {
        case .kilohertz100: "100k"
        case .kilohertz400: "400k"
        case .kilohertz800: "800k"
        case .megahertz1: "1m"
        }
    }
}
