import TiltDisplay

extension NativeBoard: EmulatedBoard {
    /// The native board's screen (no panel model: what is drawn is shown).
    public var displayedScreen: Screen { screen }
    /// The contrast our firmware sets (Hardware/tiltserial/ssd1306.cpp: 0x81 0xCF),
    /// as the AVR engine's glass shows it.
    public var displayedBrightness: UInt8 { SSD1306Glass.brightness(contrast: Self.firmwareContrast) }
    /// SSD1306 contrast (command 0x81) our firmware sets at start-up.
    public static let firmwareContrast: UInt8 = 0xCF
    /// SAMPLE frames dropped because no host had the port open (reset on
    /// connect), or the host read too slowly (the output buffer was full).
    public var unreadOutput: UnreadOutput { UnreadOutput(count: currentStatus.samplesDroppedUnread, unit: "SAMPLE frames",
                                                   circumstance: "while no host read the port (none had it open, or it did not read in time)") }
}
