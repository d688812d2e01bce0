import WireProtocol

/// The native board's serial output, like a UART TX buffer feeding a USB
/// adapter: frames are queued whole (damaged per the fault spec on the way in)
/// and written to the pty without waiting, so a host that does not read never
/// blocks the board.
struct NativeWire {
    /// Frames that must go (HELLO, PONG) may fill the queue up to this.
    static let hardLimit = 1 << 16

    var injector: FaultInjector
    /// Bytes queued before SAMPLE frames drop (paced) or the board waits (free-running).
    let bufferBytes: Int
    private var output: [UInt8] = []
    private var head = 0
    private var scratch: [UInt8] = []

    init(faults: FaultSpec, bufferBytes: Int) {
        injector = FaultInjector(spec: faults)
        self.bufferBytes = bufferBytes
    }

    /// Bytes waiting for the pty.
    var pending: Int { output.count - head }

    /// Room for SAMPLE frames.
    var room: Int { bufferBytes - pending }

    /// Queues a Swift-encoded frame; see `queue(wire:…)`.
    mutating func queue(_ frame: some WireFrame, isSample: Bool, must: Bool, lifetimeMicros: UInt64) -> Bool {
        scratch.removeAll(keepingCapacity: true)
        frame.encode(into: &scratch)
        return queue(wire: scratch, isSample: isSample, must: must, lifetimeMicros: lifetimeMicros)
    }

    /// Queues one frame's wire bytes through the fault injector. Frames that are
    /// not a must go only if they fit the buffer whole (the firmware's rule).
    mutating func queue(wire: [UInt8], isSample: Bool, must: Bool, lifetimeMicros: UInt64) -> Bool {
        let limit = must ? Self.hardLimit : bufferBytes
        guard pending + wire.count <= limit else { return false }
        _ = injector.emit(wire, isSample: isSample, lifetimeMicros: lifetimeMicros, into: &output)
        return true
    }

    /// Writes what the pty takes now; returns the bytes written.
    mutating func flush(to link: PtyLink) -> Int {
        guard pending > 0 else { return 0 }
        let written = output.withUnsafeBytes { link.write(UnsafeRawBufferPointer(rebasing: $0[head...])) }
        head += written
        if head == output.count {
            output.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 16_384 {
            output.removeFirst(head)
            head = 0
        }
        return written
    }

    /// Drops everything queued (the cable was pulled).
    mutating func clear() {
        output.removeAll(keepingCapacity: true)
        head = 0
    }
}
