import FirmwareCore
import WireProtocol

/// The native board's receiving side: the host's bytes through the firmware's
/// own bounded receiver (`tilt_rx`: COBS, size and CRC checks) into payloads,
/// each decoded once, with the receiver's verdicts counted for the status.
struct NativeInput {
    /// What the receiver made of the host's bytes since power-on: frames that
    /// passed its checks, and why the others were dropped.
    private(set) var counters = DecoderCounters()
    private var receiver = tilt_rx()
    private var buffer = [UInt8](repeating: 0, count: 1024)

    /// Power-on: an empty receiver and fresh counters.
    mutating func reset() {
        tilt_rx_reset(&receiver)
        counters = DecoderCounters()
    }

    /// One read from `link` (it never blocks), each whole payload handed to
    /// `frame` in order; false when nothing came.
    mutating func read(from link: PtyLink, _ frame: (UnsafeRawBufferPointer) -> Void) -> Bool {
        let count = buffer.withUnsafeMutableBytes { link.read(into: $0) }
        guard count > 0 else { return false }
        for index in 0..<count { push(buffer[index], frame) }
        return true
    }

    /// Feeds `bytes`; `frame` gets each payload (type ‖ body, CRC stripped),
    /// valid only during the call, before the next byte is taken: a frame's
    /// effects happen before the next frame is read, as on the board.
    mutating func receive(_ bytes: UnsafeRawBufferPointer, _ frame: (UnsafeRawBufferPointer) -> Void) {
        for byte in bytes { push(byte, frame) }
    }

    private mutating func push(_ byte: UInt8, _ frame: (UnsafeRawBufferPointer) -> Void) {
        var payload: UnsafePointer<UInt8>?
        var length: UInt8 = 0
        switch tilt_rx_push(&receiver, byte, &payload, &length) {
        case TILT_RX_FRAME:
            counters.framesDecoded += 1
            if let payload { frame(UnsafeRawBufferPointer(start: payload, count: Int(length))) }
        case TILT_RX_BAD_CRC: counters.crcErrors += 1
        case TILT_RX_BAD_COBS, TILT_RX_SHORT: counters.framingErrors += 1
        case TILT_RX_OVERSIZE: counters.oversizeFrames += 1
        default: break
        }
    }
}
