/// The display module on the emulated board's I2C bus: which controller the
/// part model (CBoardParts/cbp_ssd1306.c) plays. Raw values are `tiltsim
/// --display`'s names.
public enum EmulatedDisplay: String, Sendable, CaseIterable {
    /// A 0.96" 128x64 module: SSD1306, 128-column GDDRAM, reads return its status byte.
    case ssd1306
    /// A 1.3" 128x64 module: SH1106, 132-column RAM showing columns 2...129,
    /// page addressing only, RAM readable over I2C (how our firmware tells it apart).
    case sh1106
    /// A 0.91" 128x32 module: the SSD1306 on a 32-line panel wired to COM0...COM31
    /// (SSD1306Glass); not detectable over I2C (the controller is the same).
    case ssd1306_128x32 = "ssd1306-128x32"

    /// The PARTS frame's display_kind for it (docs/protocol.md), also the C model's CBP_DISPLAY_*.
    public var kind: UInt8 {
        switch self {
        case .ssd1306: 0
        case .sh1106: 1
        case .ssd1306_128x32: 2
        }
    }

    /// "SSD1306 128x64", as PartsFrame names the kind.
    public var name: String {
        switch self {
        case .ssd1306: "SSD1306 128x64"
        case .sh1106: "SH1106 128x64"
        case .ssd1306_128x32: "SSD1306 128x32"
        }
    }
}
