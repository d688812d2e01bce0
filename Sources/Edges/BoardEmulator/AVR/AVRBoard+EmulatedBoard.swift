import TiltDisplay

extension AVRBoard: EmulatedBoard {
    /// UART bytes the firmware sent while no host read the pty (closed, or a host that did not read).
    public var unreadOutput: UnreadOutput { UnreadOutput(count: currentStatus.droppedSerialOutput, unit: "bytes",
                                                 circumstance: "while no host read the port (none had it open, or it did not read)") }
    /// What the glass shows (`AVRDisplayFrame.glass`).
    public var displayedScreen: Screen { displayFrame.glass }
    /// Grey of a lit pixel from the SSD1306's contrast (0x81); 0 while the panel is dark.
    public var displayedBrightness: UInt8 { displayFrame.brightness }
}
