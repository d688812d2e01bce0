import CBoardParts

/// The sketch's serial port as the machine's owner sees it (UART0, or on an
/// ATmega32U4 its own USB, through CBoardParts' USB host: `cbp_serial_irq`):
/// bytes the firmware sent, waiting to be taken, and bytes for the firmware,
/// fed only while the port signals room (XON), so its receive FIFO never overruns.
///
/// simavr calls the hooks from inside `avr_run`; everything here belongs to
/// whoever steps the machine. Both queues are bounded: output beyond
/// `outputCapacity` that nobody took is dropped and counted; input beyond
/// `inputCapacity` is refused (the caller keeps it, e.g. in the kernel's pty buffer).
final class AVRUART {
    static let inputCapacity = 4096
    static let outputCapacity = 64 * 1024

    private let uartInput: OpaquePointer
    private var hooks: [(OpaquePointer, cbp_irq_hook)] = []
    private var xon = false
    private var input = ByteQueue()
    private(set) var output = ByteQueue()

    /// Bytes from the AVR dropped because the output queue was full.
    private(set) var droppedOutput: UInt64 = 0
    /// Bytes moved in each direction since the machine was made.
    private(set) var bytesFromAVR: UInt64 = 0
    private(set) var bytesToAVR: UInt64 = 0
    /// Sees every byte both ways while motion to photon is recorded; nil otherwise.
    var probe: GlassStatsProbe?

    /// `port` 0 is the sketch's Serial (a 32U4's USB); 1–3 the Mega's Serial1–3.
    init(avr: OpaquePointer, port: Int = 0) {
        func irq(_ which: Int32) -> OpaquePointer? { port == 0 ? cbp_serial_irq(avr, which) : cbp_uart_irq(avr, Int32(port), which) }
        uartInput = irq(Int32(CBP_UART_INPUT))!
        let context = Unmanaged.passUnretained(self).toOpaque()
        let outputHook: cbp_irq_hook = { _, value, context in
            Unmanaged<AVRUART>.fromOpaque(context!).takeUnretainedValue().received(UInt8(truncatingIfNeeded: value))
        }
        let xonHook: cbp_irq_hook = { _, value, context in
            guard value != 0 else { return }
            let uart = Unmanaged<AVRUART>.fromOpaque(context!).takeUnretainedValue()
            uart.xon = true
            uart.feed()
        }
        let xoffHook: cbp_irq_hook = { _, value, context in
            guard value != 0 else { return }
            Unmanaged<AVRUART>.fromOpaque(context!).takeUnretainedValue().xon = false
        }
        for (which, hook) in [(CBP_UART_OUTPUT, outputHook), (CBP_UART_XON, xonHook), (CBP_UART_XOFF, xoffHook)] {
            let irq = irq(Int32(which))!
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

    /// The core was reset: the receiver is off until the firmware enables it.
    func coreDidReset() { xon = false }

    /// Room for host bytes now.
    var inputRoom: Int { Self.inputCapacity - input.count }

    /// Queues host bytes (as many as fit; returns how many) and feeds the UART.
    @discardableResult
    func send(_ bytes: UnsafeRawBufferPointer) -> Int {
        let taken = min(bytes.count, inputRoom)
        input.append(UnsafeRawBufferPointer(rebasing: bytes[0..<taken]))
        feed()
        return taken
    }

    /// Drops the queued output (counted as dropped), e.g. when nobody is listening.
    func dropOutput() {
        droppedOutput += UInt64(output.count)
        output.removeAll()
    }

    /// Removes `count` bytes from the front of the output (they were delivered).
    func consumeOutput(_ count: Int) { output.removeFirst(count) }

    /// Drops both queues without counting (power loss, or a reset on connect
    /// that the client should not see the old output of).
    func clear() {
        input.removeAll()
        output.removeAll()
        xon = false
    }

    /// Feeds queued input while the UART has room (also called from the XON hook).
    func feed() {
        while xon, let byte = input.popFirst() {
            bytesToAVR += 1
            probe?.hostByte(byte)
            cbp_irq_raise(uartInput, UInt32(byte))
        }
    }

    private func received(_ byte: UInt8) {
        bytesFromAVR += 1
        probe?.boardByte(byte)
        if output.count < Self.outputCapacity {
            output.append(byte)
        } else {
            droppedOutput += 1
        }
    }
}
