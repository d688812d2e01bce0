import TiltDisplay

/// Either engine, as a demo or `tiltsim` drives it: a board on a pty with a
/// screen, a motion source and a cable.
public protocol EmulatedBoard: AnyObject, Sendable {
    /// The pty slave a host opens now; nil while unplugged or stopped.
    var serialPath: String? { get }
    /// What the board's display shows now (dark while the display is off).
    var displayedFrame: TiltDisplay.Frame { get }
    /// Gray level (0...255) of a lit pixel now: the display's contrast as brightness.
    var displayedBrightness: UInt8 { get }
    func start()
    func stop()
    /// The reset button: HELLO again, sequence and board time restart.
    func reset()
    /// Pulls the cable: the pty closes.
    func unplug()
    /// Plugs it back in: a new pty (a link follows it). Returns the new path.
    @discardableResult func plugIn() throws -> String
    /// What the sensor feels from the next sample on.
    func setMotionSource(_ source: any MotionSource)
    /// Board seconds per wall second since start.
    func speedReport() -> AVRSpeedReport
    /// What the board sent that no host received, so far.
    var unreadOutput: UnreadOutput { get }
}

/// Output a board made that no host received: sent while no one had the port
/// open (avr: UART bytes) or read it (native: SAMPLE frames that did not fit).
public struct UnreadOutput: Sendable, Equatable {
    public var count: UInt64
    /// What is counted ("bytes"), and when it is lost ("while no host had the port open").
    public var unit: String
    public var circumstance: String
}

extension NativeBoard: EmulatedBoard {
    public var displayedFrame: TiltDisplay.Frame { screen }
    /// The contrast our firmware sets (Hardware/tiltserial/ssd1306.cpp: 0x81 0xCF),
    /// as the AVR engine's glass shows it.
    public var displayedBrightness: UInt8 { SSD1306Glass.brightness(contrast: Self.firmwareContrast) }
    public static let firmwareContrast: UInt8 = 0xCF
    public var unreadOutput: UnreadOutput { UnreadOutput(count: currentStatus.samplesDroppedUnread, unit: "SAMPLE frames",
                                                   circumstance: "because no host read them in time") }
}

extension AVRBoard: EmulatedBoard {
    public var unreadOutput: UnreadOutput { UnreadOutput(count: currentStatus.droppedSerialOutput, unit: "bytes",
                                                 circumstance: "while no host had the port open") }
    /// What the glass shows (`AVRDisplayFrame.glass`).
    public var displayedFrame: TiltDisplay.Frame { displayFrame.glass }
    public var displayedBrightness: UInt8 { displayFrame.brightness }
}
