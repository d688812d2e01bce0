import SerialIO

/// The live view's keys, from the bytes a terminal sends, as the requests the
/// run loop reads: `q` stops, `c` makes the current pose the rest pose. Escape
/// sequences (arrow keys, function keys, Alt+key) are skipped whole, so the `C`
/// of the right arrow's `ESC [ C` is not a `c`. An Esc that ends what one read
/// brought is the Esc key alone: a terminal sends a sequence in one write, and
/// the `q` pressed after Esc was taken for Alt+q (a tester's reflex).
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

    /// The bytes one read brought are done: an Esc last among them was alone.
    mutating func endOfRead() {
        if state == .escape { state = .text }
    }
}

/// Reads the keys on its own thread while the view is up, with the terminal in
/// non-canonical, no-echo mode (signals stay on: Ctrl-C still interrupts), and
/// turns them into requests on the run's wake-up pipe. `stop()` ends the thread
/// and restores the terminal; `ViewSignals` restores it too on a fatal signal
/// and around Ctrl-Z.
final class ViewKeys: @unchecked Sendable {
    let wake: WakeUpPipe
    /// Touched only by the reader thread.
    private var decoder = KeyDecoder()
    private var reader: ReaderThread?

    /// nil when the terminal's modes cannot be read or set (keys are then off).
    init?(input: Int32, wake: WakeUpPipe) {
        guard TerminalKeyMode.enter(input) else { return nil }
        self.wake = wake
        // End of input in key mode (or EIO) means the terminal hung up (its window
        // closed): stop the run as SIGHUP would, rather than draw for no one.
        reader = ReaderThread(input: input, bytes: { [unowned self] in self.keys($0) }, ended: { wake.send(.stop) })
        guard reader != nil else {
            TerminalKeyMode.restore()
            return nil
        }
    }

    /// Ends the thread (waits for it) and restores the terminal's modes.
    func stop() {
        guard let reader else { return }
        reader.stop()
        self.reader = nil
        TerminalKeyMode.restore()
    }

    private func keys(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            decoder.feed(byte) { wake.send($0) }
        }
        decoder.endOfRead()
    }
}
