import TiltDisplay

/// Either engine, as a demo or `tiltsim` drives it: a board on a pty with a
/// screen, a motion source and a cable.
public protocol EmulatedBoard: AnyObject, Sendable {
    /// The pty slave a host opens now; nil while unplugged or stopped.
    var serialPath: String? { get }
    /// What the board's display shows now (dark while the display is off).
    var displayedScreen: Screen { get }
    /// Gray level (0...255) of a lit pixel now: the display's contrast as brightness.
    var displayedBrightness: UInt8 { get }
    /// Powers the board on and starts its thread (or holds it until a host opens the pty, if so configured).
    func start()
    /// Stops the thread and closes the pty for good; the board cannot start again.
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
    func speedReport() -> BoardSpeedReport
    /// What the board sent that no host received, so far.
    var unreadOutput: UnreadOutput { get }
}

/// Output a board made that no host received: sent while no one had the port
/// open (avr: UART bytes) or read it (native: SAMPLE frames that did not fit).
public struct UnreadOutput: Sendable, Equatable {
    /// How many units were lost.
    public var count: UInt64
    /// What is counted ("bytes"), and when it is lost ("while no host had the port open").
    public var unit: String
    /// When they were lost, for the message ("while no host had the port open").
    public var circumstance: String

    /// "`n` bytes", "1 byte": `unit` is plural.
    public func counted(_ n: UInt64) -> String {
        "\(n) " + (n == 1 && unit.hasSuffix("s") ? String(unit.dropLast()) : unit)
    }
}
