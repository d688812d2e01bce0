#if canImport(Glibc)
import Glibc
#endif
import SerialIO

/// The live view's keys, from the bytes a terminal sends, as the requests the
/// run loop reads: `q` stops, `c` makes the current pose the rest pose. Escape
/// sequences (arrow keys, function keys, Alt+key) are skipped whole, so the `C`
/// of the right arrow's `ESC [ C` is not a `c`.
struct KeyDecoder: Sendable {
    private enum State { case text, escape, sequence }
    private var state = State.text

    mutating func feed(_ byte: UInt8, _ key: (WakeRequest) -> Void) {
        switch state {
        case .text:
            switch byte {
            case 0x1B: state = .escape
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): key(.stop)
            case UInt8(ascii: "c"), UInt8(ascii: "C"): key(.recalibrate)
            default: break
            }
        case .escape:
            // CSI (ESC [) and SS3 (ESC O) run to a final byte; anything else is Alt+key.
            state = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") ? .sequence : .text
        case .sequence:
            if (0x40...0x7E).contains(byte) { state = .text }
        }
    }
}

/// Reads the keys on its own thread while the view is up, with the terminal in
/// non-canonical, no-echo mode (signals stay on: Ctrl-C still interrupts), and
/// turns them into requests on the run's wake-up pipe. `stop()` ends the thread
/// and restores the terminal; `ViewSignals` restores it too on a fatal signal
/// and around Ctrl-Z.
final class ViewKeys: @unchecked Sendable {
    let input: Int32
    let wake: Int32
    let quit: WakeUpPipe
    private var thread: pthread_t?

    /// nil when the terminal's modes cannot be read or set (keys are then off).
    init?(input: Int32, wake: WakeUpPipe) {
        guard let quit = try? WakeUpPipe(), TerminalModes.enterKeyMode(input) else { return nil }
        self.input = input
        self.wake = wake.writeEnd.rawValue
        self.quit = quit
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<ViewKeys>.fromOpaque(context!).takeUnretainedValue().readKeys()
            return nil
        }, Unmanaged.passUnretained(self).toOpaque())
        guard started == 0 else {
            TerminalModes.restore()
            return nil
        }
        self.thread = thread
    }

    /// Ends the thread (waits for it) and restores the terminal's modes.
    func stop() {
        guard let thread else { return }
        quit.wake()
        pthread_join(thread, nil)
        self.thread = nil
        TerminalModes.restore()
    }

    private func request(_ r: WakeRequest) {
        var byte = r.rawValue
        _ = write(wake, &byte, 1)
    }

    private func readKeys() {
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 64)
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: quit.readEnd.rawValue, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, 2, -1)
            if n < 0 && errno == EINTR { continue }
            guard n > 0, fds[1].revents == 0 else { return }
            if fds[0].revents & Int16(POLLNVAL) != 0 { return }  // stdin was closed: no keys
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else {
                // End of input in key mode (or EIO) means the terminal hung up (its window
                // closed): stop the run as SIGHUP would, rather than draw for no one.
                request(.stop)
                return
            }
            for byte in buffer[0..<count] {
                decoder.feed(byte) { request($0) }
            }
        }
    }
}
