import TiltCore
import TiltPhysics

/// Everything a run can be configured with: the physics plus the host's own keys.
/// Filled from defaults, then one config file (`--config FILE`, else the default
/// one unless `--no-config`), then command-line options (which win);
/// `SettingSpec.all` describes each value (key, option, type, unit, range, default).
public struct HostSettings: Sendable, Equatable {
    /// The physics' settings (integrator, tick, gains, rest pose, ribbon), the keys `PhysicsSettings` declares.
    public var physics = PhysicsSettings()
    /// Sensor mounting (`--axes`, key "axes").
    public var axes = AxisMapping.identity
    /// Serial line speed, baud.
    public var baud = SerialLine.defaultBaud
    /// What opening the port does with DTR (`--no-dtr`: `.leave`, so an open does not reset the board).
    public var dtr = SerialLine.DTR.assert
    /// How long to wait for the first valid frame or data line, µs.
    public var helloTimeoutMicros = Int(SerialLine.helloTimeoutMicros)
    /// Wait for an unplugged device to come back (false: exit with code deviceGone).
    public var reconnect = SerialLine.reconnects

    /// Every value at its default (the values docs/usage.md's table lists).
    public init() {}

    /// The host's own ranges (the physics' are `PhysicsSettings.Limits`).
    public enum Limits {
        /// `baud`: what libserialport and termios can be asked for (a C int).
        public static let baud = 50...4_000_000
        /// `helloTimeoutMicros`, µs: 1 ms to an hour.
        public static let helloTimeoutMicros = 1_000...3_600_000_000
    }
}
