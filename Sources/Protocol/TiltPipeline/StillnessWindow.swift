import TiltCore

/// Whether the board has kept still over the last `windowMicros` of board
/// time, from the readings' variance. Readings are summed into buckets of
/// `bucketMicros` (count, sums and sums of squares per axis, exact integers),
/// so memory is fixed whatever the sample rate and nothing is allocated per
/// reading. At each bucket boundary the window is the last `buckets` whole
/// buckets; it counts when each bucket holds readings (no gap in the stream).
public struct StillnessWindow: Sendable {
    /// One bucket's sums, in Q15.16 g.
    struct Bucket: Sendable {
        var count: Int64 = 0
        var sum = Axes3<Int64>(x: 0, y: 0, z: 0)
        var squares = Axes3<Int64>(x: 0, y: 0, z: 0)
    }

    /// The mean reading of a still window and how much it varied.
    public struct Reading: Hashable, Sendable {
        /// Mean per axis, g.
        public var mean: Axes3<Double>
        /// Standard deviation per axis, g.
        public var deviation: Axes3<Double>
        /// Readings in the window.
        public var count: Int
        /// Board time the window ended at, µs.
        public var endMicros: UInt64
    }

    /// Time resolution of the window, µs of board time: readings are pooled per bucket.
    public let bucketMicros: UInt64
    private var buckets: [Bucket]
    /// The bucket being filled: its number (time / bucketMicros) and ring slot.
    private var current: UInt64?

    /// - Parameters:
    ///   - windowMicros: how long the board must keep still (a whole number of buckets).
    ///   - bucketMicros: the resolution of that time.
    public init(windowMicros: UInt64, bucketMicros: UInt64) {
        self.bucketMicros = max(bucketMicros, 1)
        buckets = Array(repeating: Bucket(), count: Int(max(windowMicros / self.bucketMicros, 1)))
    }

    /// Forgets every reading (a new step, a board reset, time running backwards).
    public mutating func clear() {
        for i in buckets.indices { buckets[i] = Bucket() }
        current = nil
    }

    /// Adds a reading at board time `micros`. When it opens a new bucket, the
    /// window that just closed is returned if it was complete (every bucket
    /// holding readings), whatever its variance: the caller judges it.
    public mutating func add(_ accel: Axes3<Fixed>, atMicros micros: UInt64) -> Reading? {
        let number = micros / bucketMicros
        var closed: Reading?
        if let current {
            if number < current {
                clear()
            } else if number > current {
                closed = window(endingAt: (current + 1) * bucketMicros)
                // Buckets skipped by a gap stay empty: the window is incomplete until they pass.
                for skipped in (current + 1)...min(number, current + UInt64(buckets.count)) {
                    buckets[slot(skipped)] = Bucket()
                }
            }
        }
        current = number
        var b = buckets[slot(number)]
        b.count += 1
        for axis in Axis.allCases {
            let v = Int64(accel[axis].raw)
            b.sum[axis] += v
            b.squares[axis] += v * v
        }
        buckets[slot(number)] = b
        return closed
    }

    private func slot(_ number: UInt64) -> Int { Int(number % UInt64(buckets.count)) }

    /// The whole window's statistics, or nil when a bucket is empty.
    private func window(endingAt end: UInt64) -> Reading? {
        var count: Int64 = 0
        var sum = Axes3<Int64>(x: 0, y: 0, z: 0)
        var squares = Axes3<Int64>(x: 0, y: 0, z: 0)
        for b in buckets {
            guard b.count > 0 else { return nil }
            count += b.count
            for axis in Axis.allCases {
                sum[axis] += b.sum[axis]
                squares[axis] += b.squares[axis]
            }
        }
        let n = Double(count), unit = 65536.0
        var mean = Axes3(x: 0.0, y: 0.0, z: 0.0), deviation = Axes3(x: 0.0, y: 0.0, z: 0.0)
        for axis in Axis.allCases {
            let m = Double(sum[axis]) / n
            // Exact integer sums (at most 2^40 per square and 2^17 readings), then
            // E[v²] − E[v]² in Double: plenty for deviations of a few hundredths of a g.
            let variance = max(Double(squares[axis]) / n - m * m, 0)
            mean[axis] = m / unit
            deviation[axis] = variance.squareRoot() / unit
        }
        return Reading(mean: mean, deviation: deviation, count: Int(count), endMicros: end)
    }
}
