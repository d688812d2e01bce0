import SerialIO
import TiltCore
import TiltPhysics
import TiltPipeline

/// How `HostRunner` runs a port.
public struct HostRunOptions: Sendable {
    /// The port as the user named it (a device, a /dev/serial/by-id link, a pty or
    /// its symlink); reopened by this name after an unplug.
    public var port: String
    /// Every resolved setting: physics, axes, baud, DTR, hello timeout, reconnect.
    public var settings: HostSettings
    /// `--record FILE`: raw bytes both ways with host times (TiltPipeline.Recording).
    public var recordPath: String?
    /// The pins kept from earlier runs (`--pins FILE`), oldest first.
    public var pins: [Pin] = []
    /// False: the session reports each sample (`HostEvent.sample`) instead of
    /// running the physics, and writes no OFFSETS (`calibrate`).
    public var runsPhysics = true
    /// The driver's timing decisions (doze, reopen backoff, refresh); the hello
    /// timeout, reconnect and line rate come from `settings`.
    public var timing = HostDriver.Configuration()

    /// Options for `port` with the default timing and no pins; `recordPath` nil records nothing.
    public init(port: String, settings: HostSettings = HostSettings(), recordPath: String? = nil) {
        self.port = port
        self.settings = settings
        self.recordPath = recordPath
    }

    /// The driver's configuration: `timing` with the settings' values, and the
    /// larger doze budget when `port` is a pseudo-terminal (an emulated board;
    /// looked up once, here: a reopened name is the same kind of port).
    var driverConfiguration: HostDriver.Configuration {
        var c = timing
        c.helloTimeoutMicros = UInt64(max(settings.helloTimeoutMicros, 0))
        c.reconnect = settings.reconnect
        c.lineBytesPerSecond = UInt64(max(settings.baud / 10, 1))
        if (try? PortPath.resolve(port))?.isPseudoTerminal == true {
            c.dozeBufferBytes = max(c.dozeBufferBytes, HostDriver.Configuration.pseudoTerminalDozeBufferBytes)
        }
        return c
    }
}
