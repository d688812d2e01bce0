import SerialIO
import TiltPipeline

/// Connection news: for people (stderr), never part of the `--json` data.
public enum HostStatus: Sendable, Equatable {
    /// The port is open; waiting for the board's first frame.
    case waitingForBoard(port: String)
    /// What was done about the FTDI latency timer.
    case ftdiLatency(FTDILatency.Outcome)
    /// The device vanished; `reconnecting` false means the run ends.
    case deviceGone(port: String, reconnecting: Bool)
    /// The port opened again after an unplug; nothing is written to it until it
    /// sends a valid frame (`verified` false) or its identity matched.
    case reopened(port: String, verified: Bool)
    /// The reopened device sent a valid frame: it is the board.
    case boardConfirmed(port: String)
    /// The reopened device stayed silent; it is closed and its name looked up again.
    case silentAfterReopen(port: String, micros: UInt64)
    /// Lost frames and damaged input since the last such news (at most about one a second).
    case trouble(lost: UInt64, errors: UInt64, totalLost: UInt64, totalErrors: UInt64)
    /// Writing `--record` failed (e.g. the disk is full); said once, when it happens.
    case recordingFailed(String)
    /// Other programs have the device open too: they take bytes meant for the host.
    case otherOpeners(port: String, [DeviceOpener])
    /// The user asked for the current pose as the rest pose (the view's `c`).
    case recalibrated(Recalibration)
}

extension HostStatus {
    /// The driver's news, about `port`.
    init(_ news: HostNews, port: String) {
        switch news {
        case .waitingForBoard: self = .waitingForBoard(port: port)
        case .deviceGone(let reconnecting): self = .deviceGone(port: port, reconnecting: reconnecting)
        case .reopened(let verified): self = .reopened(port: port, verified: verified)
        case .boardConfirmed: self = .boardConfirmed(port: port)
        case .silentAfterReopen(let micros): self = .silentAfterReopen(port: port, micros: micros)
        case .trouble(let lost, let errors, let totalLost, let totalErrors):
            self = .trouble(lost: lost, errors: errors, totalLost: totalLost, totalErrors: totalErrors)
        case .recalibrated(let outcome): self = .recalibrated(outcome)
        }
    }
}
