import TiltCore

/// Applies a `FaultSpec` to frames on their way out, counting exactly what it did.
struct FaultInjector: Sendable {
    var spec: FaultSpec
    private(set) var counters = FaultCounters()
    private var random: SplitMix64
    /// The previous frame's delimiter was damaged: the next frame merges with it.
    private var nextFrameHit = false

    init(spec: FaultSpec) {
        self.spec = spec
        random = SplitMix64(seed: spec.seed)
    }

    mutating func setSpec(_ spec: FaultSpec) {
        self.spec = spec
        random = SplitMix64(seed: spec.seed)
    }

    mutating func countStall() { counters.stalls += 1 }

    /// Appends `frame` (wire bytes, ending in its delimiter) to `output`, damaged
    /// per the spec when `lifetimeMicros` is in the active window. Returns whether
    /// the frame was hit.
    mutating func emit(_ frame: [UInt8], isSample: Bool, lifetimeMicros: UInt64, into output: inout [UInt8]) -> Bool {
        var hit = nextFrameHit
        nextFrameHit = false
        // Its own bytes changed (or split by insertions), and its delimiter changed.
        var broken = false
        var delimiterDamaged = false
        let active = spec.isActive && lifetimeMicros >= spec.activeFromMicros && lifetimeMicros < spec.activeUntilMicros
        guard active else {
            output.append(contentsOf: frame)
            return countHit(hit, isSample, broken: false, whole: true)
        }
        let last = frame.count - 1
        for (index, byte) in frame.enumerated() {
            let isDelimiter = index == last
            // Insertions before this byte.
            var inserted = 0
            var lastInserted: UInt8 = 0
            if random.chance(spec.insertRate) {
                lastInserted = random.byte()
                output.append(lastInserted)
                counters.insertedBytes += 1
                inserted += 1
                if lastInserted == 0 { counters.zerosCreated += 1 }
            }
            if random.chance(spec.garbageRate) {
                let length = 2 + Int(random.next() % UInt64(spec.garbageMaxLength - 1))
                for _ in 0..<length {
                    lastInserted = random.byte()
                    output.append(lastInserted)
                    if lastInserted == 0 { counters.zerosCreated += 1 }
                }
                counters.garbageRuns += 1
                counters.garbageBytes += UInt64(length)
                inserted += length
            }
            // Bytes ending in 0x00 right before a frame's first byte form runs of
            // their own and leave the frame intact; anything else breaks it.
            if inserted > 0 && !(index == 0 && lastInserted == 0) { hit = true }
            // Inserted between its bytes: broken; right before its delimiter: its
            // bytes are still whole, only the run around them is damaged.
            if inserted > 0 && index > 0 {
                if isDelimiter { delimiterDamaged = true } else { broken = true }
            }
            if random.chance(spec.dropRate) {
                counters.droppedBytes += 1
                hit = true
                if isDelimiter { nextFrameHit = true; delimiterDamaged = true } else { broken = true }
                continue
            }
            var out = byte
            if random.chance(spec.flipRate) {
                out ^= UInt8(1) << UInt8(random.next() % 8)
                counters.bitFlips += 1
                hit = true
                if isDelimiter { nextFrameHit = true; delimiterDamaged = true } else { broken = true }
                if out == 0 { counters.zerosCreated += 1 }
            }
            output.append(out)
        }
        return countHit(hit, isSample, broken: broken, whole: !broken && !delimiterDamaged)
    }

    private mutating func countHit(_ hit: Bool, _ isSample: Bool, broken: Bool, whole: Bool) -> Bool {
        if hit {
            counters.framesHit += 1
            if isSample { counters.samplesHit += 1 }
        }
        if isSample {
            if broken { counters.samplesBroken += 1 }
            if whole { counters.samplesWhole += 1 }
        }
        return hit
    }
}
