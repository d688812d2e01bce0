import SerialIO
import TiltCore
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
        let hint = Self.whatArrived(seen, firstLine: session.stream.firstLine(), seenBytes: session.stream.seenBytes, baud: baud)
        return Failure(.noValidFrames, "\(options.port): \(what): \(hint)")
    }

    /// What came instead of frames, and the fix for it: a line `run`,
    /// `calibrate` and `setup` share.
    static func whatArrived(_ seen: StreamContent, firstLine: ArraySlice<UInt8>, seenBytes: [UInt8], baud: Int) -> String {
        switch seen {
        case .nothing:
            "nothing arrived; is the sketch from Hardware/ flashed and running, and is this the board's port (`tiltserial list`)?"
        case .text:
            "text arrived but not in a known format (first line \(quoted(String(decoding: firstLine, as: UTF8.self)))); "
                + "flash the sketch from Hardware/, or for i2cdevlib's MPU6050_raw use --baud 38400; `tiltserial monitor` shows it all"
        case .binary where baud == 38400:
            // Already the Pro Mini's rate: the likelier cause is a build for another clock (a 16 MHz build runs at half its baud at 8 MHz).
            "binary bytes arrived but no valid frame (first bytes \(firstBytes(seenBytes))); "
                + "check the baud rate (now 38400, the 3.3 V Pro Mini's; the sketch uses 115200 elsewhere) and that the sketch was "
                + "built for the board's clock (make -C Hardware BOARD=promini-8mhz for an 8 MHz Pro Mini), or reflash Hardware/"
        case .binary:
            "binary bytes arrived but no valid frame (first bytes \(firstBytes(seenBytes))); "
                + "check the baud rate (now \(baud); the sketch uses 115200, 38400 on a 3.3 V Pro Mini: --baud 38400) or reflash Hardware/"
        }
    }

    /// The first bytes received in hex, as `tiltserial monitor` shows them.
    static func firstBytes(_ seenBytes: [UInt8]) -> String {
        let bytes = seenBytes.prefix(12)
        let hex = bytes.map { $0 < 0x10 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
        return seenBytes.count > bytes.count ? hex + " …" : hex
    }
}
