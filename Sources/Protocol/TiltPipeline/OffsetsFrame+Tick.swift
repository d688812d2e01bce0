import TiltPhysics
import WireProtocol

extension OffsetsFrame {
    /// The OFFSETS frame the host sends for one physics tick: its viewport and
    /// ribbon (clamped to the wire's 16 bits) and its fired/engaged flags.
    public init(tick: Tick, sequence: UInt8) {
        var flags: Flags = []
        if tick.fired { flags.insert(.fired) }
        if tick.engaged { flags.insert(.engaged) }
        self.init(
            sequence: sequence, viewportX: UInt16(clamping: tick.viewportX), viewportY: UInt16(clamping: tick.viewportY),
            ribbonX: UInt16(clamping: tick.ribbonX), ribbonBottom: UInt16(clamping: tick.ribbonBottom), flags: flags)
    }
}
