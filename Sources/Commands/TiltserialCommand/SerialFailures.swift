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
        case .notASerialDevice, .someonesTerminal: self = .notASerialDevice
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
        if case .noSuchPort = error, let command = Self.commandMeant(by: error.port) {
            self.init(ExitStatus(error), "\(error.message), nor a command: did you mean `tiltserial \(command)`?")
            return
        }
        let message = switch error {
        case .noSuchPort where !error.port.hasPrefix("/dev/"):
            error.message + "; run \(list) to see the ports present (an emulator's --link appears while tiltsim runs)"
        case .noSuchPort: error.message + "; run \(list) to see the ports present"
        case .danglingLink: error.message + ", or run \(list) to see the ports present"
        case .notASerialDevice: error.message + " (see \(list))"
        default: error.message
        }
        self.init(ExitStatus(error), message)
    }
}

extension Failure {
    /// The subcommand a missing port's name is a typo of (`calibarte`, `pin`):
    /// no slash, and at most two letters away from the name. ArgumentParser
    /// takes any word that is no subcommand for `run`'s port.
    static func commandMeant(by port: String) -> String? {
        guard !port.contains("/"), port.count >= 3 else { return nil }
        let names = Tiltserial.configuration.subcommands.map { $0._commandName }
        return names.map { ($0, EditDistance.between(port.lowercased(), $0)) }
            .filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}

/// Levenshtein distance, for "did you mean": insertions, deletions and substitutions.
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
