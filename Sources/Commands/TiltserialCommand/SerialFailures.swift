import SerialIO
import TiltExitStatus

extension ExitStatus {
    /// tiltserial's exit code for a serial error. `ExitStatus` is the one table
    /// of exit codes (docs/usage.md).
    init(_ error: SerialError) {
        switch error {
        case .noSuchPort, .danglingLink: self = .noSuchPort
        case .permissionDenied: self = .permissionDenied
        case .portBusy: self = .portBusy
        case .notASerialDevice: self = .notASerialDevice
        case .deviceGone: self = .deviceGone
        case .unsupportedBaudRate: self = .badSettings
        case .writeTimedOut, .ioError: self = .ioError
        }
    }
}

extension Failure {
    /// The serial error's one-line message, with tiltserial's next step where the
    /// port was the wrong one (SerialIO does not know the commands), and its exit code.
    /// A port that is missing or went away while brltty holds a USB-serial
    /// bridge (`BrlttyConflict`, looked up under `systemRoot`) says that instead.
    init(_ error: SerialError, systemRoot: String = "/") {
        let list = "`tiltserial list`"
        switch error {
        case .noSuchPort, .danglingLink, .deviceGone:
            if let conflict = BrlttyConflict.find(root: systemRoot) {
                self.init(ExitStatus(error), "\(error.port): \(conflict.message)")
                return
            }
        default: break
        }
        let message = switch error {
        case .noSuchPort: error.message + "; run \(list) to see the ports present"
        case .danglingLink: error.message + ", or run \(list) to see the ports present"
        case .notASerialDevice: error.message + " (see \(list))"
        default: error.message
        }
        self.init(ExitStatus(error), message)
    }
}
