import SerialIO
import WireProtocol
import TiltCore

/// The short exchange `tiltserial setup` has with the board: HELLO, then
/// DISPLAY frames each answered with PARTS (docs/protocol.md, "DISPLAY"). No
/// OFFSETS are sent, so the board keeps its test pattern (or its waiting
/// screen) on the glass while a person looks at it.
final class DisplaySetupLink {
    private let transport: any SerialTransport
    private let stop: WakeUpPipe
    private var decoder = FrameDecoder()
    /// What arrived, for a "no HELLO" that says what came instead (as `run` does).
    private var detector = FormatDetector()
    private let baud: Int
    private var frames: [Frame] = []
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)

    /// How long the board has to answer a DISPLAY (it re-begins its display and
    /// may write 4 EEPROM bytes, about 14 ms, first).
    static let answerTimeout = Duration.seconds(3)

    /// Opens `path` with the link settings (the open resets most boards).
    init(path: String, baud: Int, dtr: SerialOptions.DTR, stop: WakeUpPipe) throws(Failure) {
        do { transport = try SerialPort.open(path: path, baud: baud, options: SerialOptions(dtr: dtr)) } catch {
            buffer.deallocate()
            throw Failure(error)
        }
        self.stop = stop
        self.baud = baud
    }

    deinit {
        transport.close()
        buffer.deallocate()
    }

    /// Asks for HELLO (HOST_HELLO, for a board the open did not reset) and waits
    /// for one, at most `timeout`; checks the protocol version.
    func hello(timeout: Duration) throws(Failure) -> HelloFrame {
        try send(HostHelloFrame().encoded())
        let frame = try waitFor(timeout: timeout) { if case .hello(let h) = $0 { h } else { nil } }
        guard let hello = frame else {
            let arrived = HostRunner.whatArrived(detector.seen, firstLine: detector.firstLine(), seenBytes: detector.seenBytes, baud: baud)
            throw Failure(.noValidFrames, "\(transport.name): no HELLO within \(DurationText.seconds(micros: timeout.wholeMicros, places: 1, rounding: .down)): "
                + arrived)
        }
        guard hello.protocolVersion == WireFormat.version else {
            throw Failure(.protocolMismatch, "the board speaks protocol \(hello.protocolVersion), this tiltserial "
                + "\(WireFormat.version): reflash Hardware/ or upgrade tiltserial")
        }
        return hello
    }

    /// Sends `frame` (nil: DESCRIBE) and returns the PARTS that answers it.
    /// `evenIfStopped`: Ctrl-C does not cut this exchange short (ending the
    /// test pattern after a person stopped setup).
    func parts(after frame: DisplayFrame?, evenIfStopped: Bool = false) throws(Failure) -> PartsFrame {
        frames.removeAll()
        try send(frame.map { $0.encoded() } ?? DescribeFrame().encoded())
        let answer = try waitFor(timeout: Self.answerTimeout, stoppable: !evenIfStopped) { if case .parts(let p) = $0 { p } else { nil } }
        guard let answer else {
            throw Failure(.setupFailed, "the board did not answer \(frame == nil ? "DESCRIBE" : "DISPLAY"): "
                + "its firmware is older than tiltserial setup; flash the new one (make -C Hardware upload)")
        }
        return answer
    }

    private func send(_ bytes: [UInt8]) throws(Failure) {
        var failure: SerialError?
        bytes.withUnsafeBytes { raw in
            do throws(SerialError) { try transport.write(raw) } catch { failure = error }
        }
        if let failure { throw Failure(failure) }
    }

    /// Reads until `match` picks a frame, `timeout` passes (nil) or Ctrl-C (when `stoppable`).
    private func waitFor<T>(timeout: Duration, stoppable: Bool = true, _ match: (Frame) -> T?) throws(Failure) -> T? {
        let deadline = MonotonicClock.micros() + UInt64(timeout.wholeMicros)
        while true {
            for (index, frame) in frames.enumerated() {
                if let found = match(frame) {
                    frames.removeFirst(index + 1)
                    return found
                }
            }
            frames.removeAll()
            let now = MonotonicClock.micros()
            guard now < deadline else { return nil }
            let result: SerialWaitResult
            do { result = try transport.wait(timeout: .microseconds(Int64(deadline - now)), orWakeUp: stoppable ? stop.readEnd : nil) } catch {
                throw Failure(error)
            }
            if result == .wokenUp {
                throw Failure(.setupFailed, "stopped before a display choice was stored; nothing changed")
            }
            while true {
                let n: Int
                do { n = try transport.read(into: buffer) } catch { throw Failure(error) }
                if n == 0 { break }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                if detector.seenBytes.count < detector.limit { detector.feed(chunk) }
                decoder.feed(chunk) { frames.append($0) }
            }
        }
    }
}
