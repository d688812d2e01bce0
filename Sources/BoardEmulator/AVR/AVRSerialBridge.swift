import CBoardParts
#if canImport(Glibc)
import Glibc
#endif

/// Bridges the AVR's UART0 to the master side of a pseudo-terminal.
///
/// Lives on the simulation thread: simavr calls the hooks from inside
/// `avr_run`, and `pump()` runs between batches. Bytes from the AVR are sent
/// only while a client has the slave open (a real USB serial adapter drops
/// what nobody reads); bytes to the AVR are fed only while the UART signals
/// room (XON), so its 64-byte receive FIFO never overruns. Both queues are
/// bounded: when the client does not read, output is dropped and counted;
/// when the firmware does not read, input stays in the kernel's pty buffer.
final class AVRSerialBridge {
    static let incomingCapacity = 4096
    static let outgoingCapacity = 64 * 1024

    private let uartInput: OpaquePointer
    private var hooks: [(OpaquePointer, cbp_irq_hook)] = []
    var terminal: AVRPseudoTerminal?
    private(set) var clientConnected = false
    /// Called (by `pump()`) when a client opens the slave, after dropping what
    /// was queued both ways: the board resets the core here to mimic DTR.
    var onConnect: (() -> Void)?
    private var xon = false
    private var incoming = [UInt8]()
    private var incomingStart = 0
    private var outgoing = [UInt8]()
    private var outgoingStart = 0
    private var readBuffer = [UInt8](repeating: 0, count: 1024)

    /// Bytes from the AVR dropped because nobody was reading.
    private(set) var droppedOutput: UInt64 = 0
    /// Bytes moved in each direction since power-on.
    private(set) var bytesFromAVR: UInt64 = 0
    private(set) var bytesToAVR: UInt64 = 0

    init(avr: OpaquePointer) {
        uartInput = cbp_uart0_irq(avr, Int32(CBP_UART_INPUT))
        incoming.reserveCapacity(Self.incomingCapacity)
        outgoing.reserveCapacity(Self.outgoingCapacity)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let output: cbp_irq_hook = { _, value, context in
            Unmanaged<AVRSerialBridge>.fromOpaque(context!).takeUnretainedValue()
                .received(UInt8(truncatingIfNeeded: value))
        }
        let xonHook: cbp_irq_hook = { _, value, context in
            guard value != 0 else { return }
            let bridge = Unmanaged<AVRSerialBridge>.fromOpaque(context!).takeUnretainedValue()
            bridge.xon = true
            bridge.feed()
        }
        let xoffHook: cbp_irq_hook = { _, value, context in
            guard value != 0 else { return }
            Unmanaged<AVRSerialBridge>.fromOpaque(context!).takeUnretainedValue().xon = false
        }
        for (which, hook) in [(CBP_UART_OUTPUT, output), (CBP_UART_XON, xonHook), (CBP_UART_XOFF, xoffHook)] {
            let irq = cbp_uart0_irq(avr, Int32(which))!
            cbp_irq_register(irq, hook, context)
            hooks.append((irq, hook))
        }
    }

    /// Unhooks from simavr; call before the core is destroyed or this is released.
    func detach() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        for (irq, hook) in hooks { cbp_irq_unregister(irq, hook, context) }
        hooks.removeAll()
    }

    /// The core was reset: the UART's receiver is off until the firmware enables it.
    func coreDidReset() {
        xon = false
    }

    /// Drops queued bytes both ways (power loss).
    func clear() {
        incoming.removeAll(keepingCapacity: true)
        incomingStart = 0
        outgoing.removeAll(keepingCapacity: true)
        outgoingStart = 0
        xon = false
    }

    /// The descriptor to wait on for client input, when a client is connected.
    var waitDescriptor: Int32? {
        guard clientConnected, let fd = terminal?.fd, fd >= 0, incoming.count < Self.incomingCapacity else {
            return nil
        }
        return fd
    }

    /// Non-blocking exchange with the pty: notices a client coming or going,
    /// reads what it sent, writes what the AVR sent, feeds the UART.
    func pump() {
        guard let fd = terminal?.fd, fd >= 0 else {
            dropOutgoing()
            return
        }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, 0)
        if descriptor.revents & Int16(POLLHUP) != 0 {
            if clientConnected { _ = tcflush(fd, TCIOFLUSH) }  // no stale bytes for the next client
            clientConnected = false
            dropOutgoing()
            return
        }
        if !clientConnected, let onConnect {
            clear()
            onConnect()
        }
        clientConnected = true
        if descriptor.revents & Int16(POLLIN) != 0 { readClient(fd) }
        writeClient(fd)
        feed()
    }

    private func received(_ byte: UInt8) {
        bytesFromAVR += 1
        if outgoing.count - outgoingStart < Self.outgoingCapacity {
            outgoing.append(byte)
        } else {
            droppedOutput += 1
        }
    }

    private func feed() {
        while xon, incomingStart < incoming.count {
            let byte = incoming[incomingStart]
            incomingStart += 1
            bytesToAVR += 1
            cbp_irq_raise(uartInput, UInt32(byte))
        }
        if incomingStart == incoming.count {
            incoming.removeAll(keepingCapacity: true)
            incomingStart = 0
        }
    }

    private func readClient(_ fd: Int32) {
        if incomingStart > 0 {
            incoming.removeFirst(incomingStart)
            incomingStart = 0
        }
        let room = min(Self.incomingCapacity - incoming.count, readBuffer.count)
        guard room > 0 else { return }
        let n = readBuffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, room) }
        if n > 0 { incoming.append(contentsOf: readBuffer[0..<n]) }
    }

    private func writeClient(_ fd: Int32) {
        guard outgoingStart < outgoing.count else { return }
        let n = outgoing.withUnsafeBytes {
            write(fd, $0.baseAddress! + outgoingStart, $0.count - outgoingStart)
        }
        if n > 0 { outgoingStart += n }
        if outgoingStart == outgoing.count || outgoingStart >= Self.outgoingCapacity {
            // Compact rarely: everything sent, or the sent prefix is large.
            outgoing.removeFirst(outgoingStart)
            outgoingStart = 0
        }
    }

    private func dropOutgoing() {
        droppedOutput += UInt64(outgoing.count - outgoingStart)
        outgoing.removeAll(keepingCapacity: true)
        outgoingStart = 0
    }
}
