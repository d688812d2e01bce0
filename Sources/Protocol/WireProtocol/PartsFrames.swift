import TiltCore

/// PARTS (0x05), board → host: which sensor and display the board found, and
/// at which I2C addresses; sent in answer to DESCRIBE (docs/protocol.md,
/// "PARTS"). Older firmware skips DESCRIBE and never sends it.
public struct PartsFrame: WireFrame {
    /// The type byte it carries on the wire: 0x05 (docs/protocol.md).
    public static let frameType = FrameType.parts

    /// The sensor's 7-bit address (0x68 or 0x69); 0 when no sensor answered.
    public var sensorAddress: UInt8
    /// What the sensor answered at WHO_AM_I (0x75): 0x68 for an MPU-6050.
    public var sensorWhoAmI: UInt8
    /// The display's 7-bit address (0x3C or 0x3D); 0 when no display answered.
    public var displayAddress: UInt8
    /// The display the firmware drives: 0 SSD1306 128×64, 1 SH1106 128×64 (the 1.3" modules),
    /// 2 SSD1306 128×32; others are for later firmware (`displayName`).
    public var displayKind: UInt8
    /// Bit 0 (`kindStoredFlag`): the display kind came from the board's EEPROM
    /// (`tiltserial setup`), not detection; bit 1 (`patternFlag`): the test
    /// pattern shows; bits 2–3 (`clockMask`): the display's clock in use
    /// (`displayClock`); bit 4 (`clockFellBackFlag`): that clock is not the
    /// stored one; others zero (older firmware sends zero).
    public var flags: UInt8

    /// Bit 0 of `flags`: the display kind was set (stored in the EEPROM), not detected.
    public static let kindStoredFlag: UInt8 = 0x01
    /// Bit 1 of `flags`: the display shows the test pattern (DISPLAY try).
    public static let patternFlag: UInt8 = 0x02
    /// True when the display kind came from the board's EEPROM rather than detection.
    public var kindStored: Bool { flags & Self.kindStoredFlag != 0 }
    /// True when the display shows the test pattern.
    public var showsPattern: Bool { flags & Self.patternFlag != 0 }
    /// Bits 2–3 of `flags`: the display's I2C clock in use.
    public static let clockMask: UInt8 = 0x0C
    /// The display's I2C clock in use (400 kHz from older firmware; nil for a
    /// value this host does not know).
    public var displayClock: DisplayClock? { DisplayClock(rawValue: (flags & Self.clockMask) >> 2) }
    /// Bit 4 of `flags`: the display runs slower than the clock stored in the
    /// board, as it did not answer at that one (or the board cannot make it).
    public static let clockFellBackFlag: UInt8 = 0x10
    /// True when the display runs slower than its stored clock: a stored
    /// 800 kHz or 1 MHz it did not answer at, or 400 kHz (the default) on a bus
    /// it answers on only at 100 kHz.
    public var clockFellBack: Bool { flags & Self.clockFellBackFlag != 0 }

    /// A PARTS frame from its fields.
    public init(sensorAddress: UInt8, sensorWhoAmI: UInt8, displayAddress: UInt8, displayKind: UInt8 = 0, flags: UInt8 = 0) {
        self.sensorAddress = sensorAddress
        self.sensorWhoAmI = sensorWhoAmI
        self.displayAddress = displayAddress
        self.displayKind = displayKind
        self.flags = flags
    }
    /// Reads the 5-byte body.
    public init(body: UnsafeRawBufferPointer) {
        self.init(sensorAddress: body[0], sensorWhoAmI: body[1], displayAddress: body[2], displayKind: body[3], flags: body[4])
    }
    /// Appends the five bytes.
    public func writeBody(to payload: inout PayloadBuffer) {
        payload.append(sensorAddress)
        payload.append(sensorWhoAmI)
        payload.append(displayAddress)
        payload.append(displayKind)
        payload.append(flags)
    }

    /// The sensor's name from its WHO_AM_I (InvenSense register maps; 0x98 and
    /// the other look-alikes sold on GY-521 boards answer the 6500 family's map).
    public var sensorName: String {
        switch sensorWhoAmI {
        case 0x68: "MPU-6050"
        case 0x70: "MPU-6500"
        case 0x71: "MPU-9250"
        case 0x73: "MPU-9255"
        default: "MPU-6500 family"
        }
    }

    /// The display kind's name ("SSD1306 128x64", "SH1106 128x64", "SSD1306 128x32"), or "unknown kind N".
    public var displayName: String {
        switch displayKind {
        case 0: "SSD1306 128x64"
        case 1: "SH1106 128x64"
        case 2: "SSD1306 128x32"
        default: "unknown kind \(displayKind)"
        }
    }

    /// One line for people: "sensor MPU-6500 family (WHO_AM_I 0x98) at 0x68, display SSD1306 128x64 at 0x3C",
    /// with the display's clock when it is not 400 kHz (", 800 kHz"), ending
    /// " (set by tiltserial setup)" when the display kind came from the board's EEPROM.
    public var summary: String {
        let sensor = sensorAddress == 0 ? "no sensor"
            : "sensor \(sensorName) (WHO_AM_I \(HexText.prefixed(sensorWhoAmI))) at \(Self.address(sensorAddress))"
        var display = displayAddress == 0 ? "no display" : "display \(displayName) at \(Self.address(displayAddress))"
        if displayAddress != 0, displayClock != .kilohertz400 { display += ", \(displayClock?.label ?? "unknown clock")" }
        return sensor + ", " + display + (kindStored ? " (set by tiltserial setup)" : "")
    }

    /// "0x3C"; an address past 7 bits (no firmware of ours sends one) says it is none.
    static func address(_ value: UInt8) -> String {
        value > 0x7F ? "\(HexText.prefixed(value)) (not a 7-bit I2C address: is this our sketch?)" : HexText.prefixed(value)
    }
}

/// DESCRIBE (0x17), host → board: asks for PARTS. Its one byte is zero.
public struct DescribeFrame: WireFrame {
    /// The type byte it carries on the wire: 0x17 (docs/protocol.md).
    public static let frameType = FrameType.describe
    /// The body byte as sent (zero).
    public var reserved: UInt8

    /// A DESCRIBE (its byte zero).
    public init(reserved: UInt8 = 0) { self.reserved = reserved }
    /// Reads the 1-byte body.
    public init(body: UnsafeRawBufferPointer) { reserved = body[0] }
    /// Appends the byte.
    public func writeBody(to payload: inout PayloadBuffer) { payload.append(reserved) }
}
