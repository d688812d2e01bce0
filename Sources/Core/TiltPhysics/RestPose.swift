import TiltCore

/// The pose the device rests in, where smooth mode's tilt is zero.
///
/// Pitch is measured from face-up (0°) toward face-forward (90°); in the iOS
/// convention gravity at rest reads `ay = −sin θ, az = −cos θ`. Tilting by a
/// further φ gives `az·sin θ − ay·cos θ = sin φ`: the pitch input. Roll is kept
/// as the rest reading of `ax` (0 unless captured by calibration).
public struct RestPose: Hashable, Sendable {
    /// sin θ and cos θ, Q30.
    var sinQ30: Int64
    var cosQ30: Int64
    /// ax at rest, Q32 g.
    var restX: Int64

    /// The pose `degrees` from face-up toward face-forward, leaning
    /// `rollDegrees` with the right side down (ax at rest = sin roll).
    public init(degrees: Double, rollDegrees: Double = 0) {
        let (s, c) = FixedPoint.sineCosine(degrees: degrees)
        sinQ30 = FixedPoint.fixed(s, bits: 30)
        cosQ30 = FixedPoint.fixed(c, bits: 30)
        restX = rollDegrees == 0 ? 0 : FixedPoint.fixed(FixedPoint.sineCosine(degrees: rollDegrees).sin, bits: 32)
    }

    /// The pose of a reading (`MotionSample.accel`, iOS convention); nil when the
    /// device lies on its side (|(ay, az)| under 0.25 g), where pitch is undefined.
    public init?(capturing accel: Axes3<Fixed>) {
        let ay = Int64(accel.y.raw), az = Int64(accel.z.raw)
        let norm = Int64(FixedPoint.squareRoot(UInt64(ay * ay + az * az)))  // Q16
        guard norm >= FixedPoint.q16One / 4 else { return nil }
        sinQ30 = FixedPoint.divRound(-ay << 30, norm)
        cosQ30 = FixedPoint.divRound(-az << 30, norm)
        restX = Int64(accel.x.raw) << 16
    }

    /// The rest angle in degrees, for display (configuration-time precision).
    public var degrees: Double {
        // atan2 without libm: bisection on the Taylor sine/cosine.
        let s = Double(sinQ30), c = Double(cosQ30)
        var low = -180.0, high = 180.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            let (ms, mc) = FixedPoint.sineCosine(degrees: mid)
            // sin(θ − mid) > 0: θ lies above mid. The first step (mid = 0) picks the
            // half-turn holding θ, so the test is unambiguous after it.
            if mc * s - ms * c > 0 { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// Sideways tilt, Q32 g: positive with the right side down.
    func roll(ax: Int64) -> Int64 { ax - restX }

    /// Pitch away from rest, Q32 (≈ sin φ): positive toward face-forward.
    func pitch(ay: Int64, az: Int64) -> Int64 {
        FixedPoint.mulShift(az, sinQ30, 30) - FixedPoint.mulShift(ay, cosQ30, 30)
    }
}
