/// Recipe 1-5 exactly as its sample code computes in C: Float32 variables,
/// `SIGN(n) = (n < 0) ? -1 : 1` (so SIGN(0) = +1), and the C integer `abs()`
/// applied to a float gain, which truncates it to an int: `abs(0.005f)` is 0, so
/// the gain becomes ±0.005 at its first update and never grows.
///
/// The gain update runs on every sample, the integration on every tick.
public struct RecipeIntegrator: Hashable, Sendable {
    /// The recipe's `xoff`, `yoff`: normalized offsets, 0...1.
    public private(set) var xOffset: Float = 0
    /// The recipe's `yoff`: normalized y offset, 0...1.
    public private(set) var yOffset: Float = 0
    /// The recipe's `xaccel`, `yaccel`: 0 until the first update, then ±0.005.
    public private(set) var xGain: Float = 0
    /// The recipe's `yaccel`: 0 until the first update, then ±0.005.
    public private(set) var yGain: Float = 0
    /// The recipe's `xvelocity`, `yvelocity`: offset per tick.
    public private(set) var xVelocity: Float = 0
    /// The recipe's `yvelocity`: y offset per tick.
    public private(set) var yVelocity: Float = 0

    /// All state zero: offsets at the top-left, no gain, no velocity.
    public init() {}

    /// The recipe's additive gain step: "to increase viscosity lower the additive value".
    public static let step: Float = 0.005

    static func sign(_ n: Float) -> Float { n < 0 ? -1 : 1 }

    /// C's `abs(int)` called with a float: the float converts to int by truncation.
    /// (The gain stays far inside Int32's range, so the conversion is defined.)
    static func cIntegerAbs(_ value: Float) -> Float {
        let truncated = Int32(value.rounded(.towardZero))
        return Float(truncated < 0 ? -truncated : truncated)
    }

    /// The accelerometer handler, with acceleration in g, iOS convention.
    public mutating func sample(ax: Float, az: Float) {
        let xx = -ax
        let yy = (az + 0.5) * 2  // between face up and face forward
        let accelDirX = Self.sign(xVelocity) * -1
        let newDirX = Self.sign(xx)
        let accelDirY = Self.sign(yVelocity) * -1
        let newDirY = Self.sign(yy)
        if accelDirX == newDirX { xGain = (Self.cIntegerAbs(xGain) + Self.step) * Self.sign(xGain) }
        if accelDirY == newDirY { yGain = (Self.cIntegerAbs(yGain) + Self.step) * Self.sign(yGain) }
        xVelocity = -xGain * xx
        yVelocity = -yGain * yy
    }

    /// The 30 ms timer: `off += velocity`, clamped to [0, 1]. Returns how far y
    /// would have gone past the top (0 ≤ result), for the ribbon.
    @discardableResult public mutating func tick() -> Float {
        // MIN and MAX as the C macros compute them: ((a) < (b) ? (a) : (b)).
        xOffset += xVelocity
        xOffset = xOffset < 1 ? xOffset : 1
        xOffset = xOffset > 0 ? xOffset : 0
        yOffset += yVelocity
        let pastTop = yOffset < 0 ? -yOffset : 0
        yOffset = yOffset < 1 ? yOffset : 1
        yOffset = yOffset > 0 ? yOffset : 0
        return pastTop
    }
}
