import TiltCore

/// What the recipe intends, in fixed point (docs/physics.md):
/// - acceleration low-passed per axis with a time constant in µs of board time;
/// - tilt measured from a rest pose, with a dead zone so a still hand stays still;
/// - velocity = gain × tilt, the gain starting at the recipe's 0.005 per 30 ms,
///   ramping while the tilt keeps its direction, reset when it reverses or rests,
///   capped;
/// - integration on the tick, offsets clamped to [0, 1] (Q32).
public struct SmoothIntegrator: Hashable, Sendable {
    /// One axis's gain state.
    struct Axis: Hashable, Sendable {
        var offset: Int64 = 0  // Q32, 0...2^32
        var gain: Int64 = 0  // Q32 offset per tick per g
        var direction: Int8 = 0  // sign of the last tick's input
        var tilt: Int64 = 0  // the last tick's tilt before the dead zone, Q32 g
        init() {}
    }

    /// The per-tick constants, resolved from settings once.
    struct Constants: Hashable, Sendable {
        var baseGain: Int64  // Q32 per tick per g
        var ramp: Int64  // Q32 per tick per tick
        var cap: Int64  // Q32 per tick per g
        var deadZone: Int64  // Q32 g
        var yScale: Int64  // Q16
    }

    var x = Axis()
    var y = Axis()
    /// The last tick's step per axis before clamping, Q32 offset (gain × input):
    /// how far the tilt moved (or, held, would have moved) the view.
    public private(set) var xStep: Int64 = 0
    /// The last tick's y step before clamping, Q32 offset.
    public private(set) var yStep: Int64 = 0
    let constants: Constants
    var filters: Axes3<LowPassFilter>
    /// The rest pose tilt is measured from.
    public var rest: RestPose

    /// The tilt limit after the dead zone, Q32 g: bounds every product.
    static let inputLimit: Int64 = 4 << 32

    /// An integrator at the top-left, base gain, with gains converted from per 30 ms to per tick.
    public init(settings: PhysicsSettings) {
        // Gains are per 30 ms in the settings (the recipe's unit); per tick here.
        let ratio = Double(settings.tickMicros) / 30_000
        constants = Constants(
            baseGain: FixedPoint.fixed(settings.baseGain * ratio, bits: 32),
            ramp: FixedPoint.fixed(settings.gainRamp * ratio * ratio, bits: 32),
            cap: FixedPoint.fixed(settings.gainCap * ratio, bits: 32),
            deadZone: FixedPoint.fixed(settings.deadZone, bits: 32),
            yScale: FixedPoint.fixed(settings.yScale, bits: 16))
        let filter = LowPassFilter(timeConstantMicros: settings.filterMicros)
        filters = Axes3(x: filter, y: filter, z: filter)
        rest = RestPose(degrees: settings.restAngleDegrees, rollDegrees: settings.restRollDegrees)
        x.gain = constants.baseGain
        y.gain = constants.baseGain
    }

    /// Normalized offsets, Q32 (0 ... 2^32).
    public var xOffset: Int64 { x.offset }
    /// Normalized y offset, Q32 (0 ... 2^32).
    public var yOffset: Int64 { y.offset }

    /// The low-passed acceleration now, Q32 g (iOS convention).
    public var filteredAcceleration: Axes3<Int64> {
        Axes3(x: filters.x.value, y: filters.y.value, z: filters.z.value)
    }

    /// Takes one reading at board time `t`.
    public mutating func sample(_ accel: Axes3<Fixed>, at t: UInt64) {
        filters.x.take(Int64(accel.x.raw) << 16, at: t)
        filters.y.take(Int64(accel.y.raw) << 16, at: t)
        filters.z.take(Int64(accel.z.raw) << 16, at: t)
    }

    /// Sideways tilt, Q32 g: positive with the right side down.
    public var xTilt: Int64 { rest.roll(ax: filters.x.value) }

    /// Pitch tilt, Q32 g: positive tilting back toward face-up (the recipe's `−yy`).
    public var yTilt: Int64 { -rest.pitch(ay: filters.y.value, az: filters.z.value) }

    /// Integrates once at tick time `t`. Returns how far y would have gone past
    /// the top, Q32 (≥ 0), for the ribbon. `holdingOffsets` (the drawer holds
    /// the map): the gains and steps update as usual, the offsets stay put, and
    /// the result is measured from where y is held.
    @discardableResult public mutating func tick(at t: UInt64, holdingOffsets: Bool = false) -> Int64 {
        filters.x.advance(to: t)
        filters.y.advance(to: t)
        filters.z.advance(to: t)
        let heldX = x.offset, heldY = y.offset
        xStep = Self.integrate(&x, tilt: xTilt, scale: 1 << 16, constants).step
        let (pastTop, step) = Self.integrate(&y, tilt: yTilt, scale: constants.yScale, constants)
        yStep = step
        if holdingOffsets {
            x.offset = heldX
            y.offset = heldY
        }
        return pastTop
    }

    /// The offsets (Q32, 0...2^32) the map would show at board time `t`
    /// between two ticks, without changing anything: the next tick's step,
    /// computed from the readings so far, taken in proportion to the part of
    /// the tick period (`periodMicros`, ending at `nextTick`) that has passed.
    /// At `nextTick` it is where that tick would put the map if no sample
    /// came in between; before it, the map moves on smoothly instead of in
    /// tick-sized jumps (frame sync, docs/protocol.md).
    public func offsets(at t: UInt64, nextTick: UInt64, periodMicros: UInt64) -> (x: Int64, y: Int64) {
        var ahead = self
        ahead.tick(at: min(t, nextTick))
        let start = nextTick - min(periodMicros, nextTick)
        let elapsed = Int64(min(max(t, start) - start, periodMicros))
        let period = Int64(max(periodMicros, 1))
        func between(_ now: Int64, _ next: Int64) -> Int64 { now + (next - now) * elapsed / period }
        return (between(x.offset, ahead.x.offset), between(y.offset, ahead.y.offset))
    }

    /// Starts the y gain over at its base (the ribbon engaging: a pull starts slow).
    public mutating func restartYGain() {
        y.gain = constants.baseGain
    }

    static func deadBand(_ value: Int64, _ zone: Int64) -> Int64 {
        let shifted = value > zone ? value - zone : value < -zone ? value + zone : 0
        return max(-inputLimit, min(inputLimit, shifted))
    }

    /// One axis's tick: gain update, velocity, offset. `scale` is Q16. Returns how
    /// far the offset would have gone below 0 (≥ 0) and the step (gain × input).
    static func integrate(_ axis: inout Axis, tilt: Int64, scale: Int64, _ c: Constants) -> (pastEdge: Int64, step: Int64) {
        let input = FixedPoint.mulShift(deadBand(tilt, c.deadZone), scale, 16)
        let direction: Int8 = input > 0 ? 1 : input < 0 ? -1 : 0
        if direction == 0 {
            axis.gain = c.baseGain
        } else if direction == axis.direction {
            axis.gain = min(axis.gain + c.ramp, c.cap)
        } else {
            // A new direction: the tilt left the dead zone between the last tick
            // and this one. Interpolating when (b / (b − a) of a tick ago) starts
            // the ramp from that moment, not from the tick, so the trajectory does
            // not jump by a whole ramp step when sampling shifts the crossing.
            let s = Int64(direction)
            let before = min(0, s * axis.tilt - c.deadZone)  // ≤ 0: inside the zone or beyond the other side
            let after = max(1, s * tilt - c.deadZone)  // > 0
            // ramp × after can pass Int64 (a large ramp times a 16 g tilt): take the
            // product at full width; the quotient is at most ramp (after ≤ after − before).
            let share = (after - before).dividingFullWidth(c.ramp.multipliedFullWidth(by: after)).quotient
            axis.gain = min(c.baseGain + share, c.cap)
        }
        axis.direction = direction
        axis.tilt = tilt
        let step = FixedPoint.mulShift(axis.gain, input, 32)
        let moved = axis.offset + step
        axis.offset = max(0, min(FixedPoint.q32One, moved))
        return (moved < 0 ? -moved : 0, step)
    }
}
