import SerialIO

extension Failure.Code {
    /// tiltserial's exit code for a serial error. `Failure.Code` is the one table
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
    /// The serial error's own one-line message with its tiltserial exit code.
    init(_ error: SerialError) {
        self.init(Code(error), error.message)
    }
}
