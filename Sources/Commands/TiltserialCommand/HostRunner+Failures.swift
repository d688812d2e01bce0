import SerialIO
import TiltPipeline
import WireProtocol

extension HostRunner {
    /// The one line (and exit code) for a way the driver ended the run.
    func render(_ failure: HostFailure, session: HostSession) -> Failure {
        let port = options.port
        switch failure {
        case .protocolMismatch(let board, let host):
            return Failure(.protocolMismatch,
                "\(port): the board speaks protocol version \(board), this tiltserial version \(host); "
                + "reflash the board from Hardware/ (make -C Hardware upload) or upgrade tiltserial to match")
        case .deviceGone:
            if let conflict = BrlttyConflict.find() {
                return Failure(.deviceGone, "\(port): device gone: " + conflict.message)
            } else {
                return Failure(.deviceGone, "\(port): device gone (unplugged or closed); reconnect it and start again, or drop --no-reconnect to wait for it")
            }
        case .noValidFrames(let seen, let why):
            return noValidFrames(seen: seen, why: why, session: session)
        }
    }

    func noValidFrames(seen: StreamContent, why: NoValidFramesReason, session: HostSession) -> Failure {
        let baud = options.settings.baud
        let what: String = switch why {
        case .timedOut(let micros):
            "no valid frames within \(Double(micros) / 1_000_000) s (--hello-timeout)"
        case .detectionGaveUp(let bytes, let after):
            "no valid frame in the first \(bytes) bytes (after \(Double(after / 100_000) / 10) s)"
        }
        let hint: String = switch seen {
        case .nothing:
            "nothing arrived; is the sketch from Hardware/ flashed and running, and is this the board's port (`tiltserial list`)?"
        case .text:
            "text arrived but not in a known format (first line \(Self.quotedFirstLine(session))); "
                + "flash the sketch from Hardware/, or for i2cdevlib's MPU6050_raw use --baud 38400; `tiltserial monitor` shows it all"
        case .binary:
            "binary bytes arrived but no valid frame (first bytes \(Self.firstBytes(session))); "
                + "check the baud rate (now \(baud); the sketch uses 115200, 38400 on a 3.3 V Pro Mini: --baud 38400) or reflash Hardware/"
        }
        return Failure(.noValidFrames, "\(options.port): \(what): \(hint)")
    }

    /// The first line received, quoted as every message quotes input (40 characters at most).
    static func quotedFirstLine(_ session: HostSession) -> String {
        quoted(String(decoding: session.stream.firstLine(), as: UTF8.self))
    }

    /// The first bytes received in hex, as `tiltserial monitor` shows them.
    static func firstBytes(_ session: HostSession) -> String {
        let bytes = session.stream.seenBytes.prefix(12)
        let hex = bytes.map { $0 < 0x10 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
        return session.stream.seenBytes.count > bytes.count ? hex + " …" : hex
    }
}
