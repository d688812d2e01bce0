import TiltCore
import TiltPhysics
import WireProtocol
@testable import TiltPipeline

/// A small synthetic world: the shipped geometry (512 × 256 content) and a solid ribbon mask.
enum Fixture {
    static let geometry = ContentGeometry(tileWidth: 256, tileHeight: 128)
    static let ribbonMask = AlphaMask(width: 12, height: 36, alpha: [UInt8](repeating: 255, count: 12 * 36))!
    static let tileID: UInt16 = 0xBEEF

    static func engine(_ settings: PhysicsSettings = PhysicsSettings(), converter: SampleConverter = SampleConverter()) -> TiltEngine {
        try! TiltEngine(settings: settings, geometry: geometry, ribbonArt: ribbonMask, converter: converter)
    }

    static func session(_ settings: PhysicsSettings = PhysicsSettings()) -> HostSession {
        HostSession(engine: engine(settings), hostTileID: tileID)
    }

    static func hello(version: UInt8 = WireFormat.version, accel: UInt8 = 0, rate: UInt16 = 1000, tile: UInt16 = tileID,
                      status: UInt8 = 3) -> HelloFrame {
        HelloFrame(protocolVersion: version, firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0,
                   accelFullScaleSelect: accel, gyroFullScaleSelect: 0, sampleRateHz: rate, contentTileID: tile, status: status)
    }

    /// A tilt that changes over time: rolling right then pitching forward, ±2 g counts.
    static func raw(_ i: Int) -> RawSample {
        let ax = Int16(6000 * (i % 900 < 450 ? 1 : -1))
        let az = Int16(-1000 - (i % 1500) * 9)
        return RawSample(accel: Axes3(x: ax, y: 3000, z: az))
    }

    /// `count` SAMPLE frames at 1 kHz starting at board time `start` µs, sequence from `firstSequence`.
    static func samples(_ count: Int, start: UInt32 = 1000, firstSequence: Int = 0, rawOffset: Int = 0) -> (wire: [UInt8], samples: [TimedSample]) {
        var wire: [UInt8] = []
        var timed: [TimedSample] = []
        for i in 0..<count {
            let time = start + UInt32(i) * 1000
            let raw = raw(i + rawOffset)
            SampleFrame(sequence: UInt8(truncatingIfNeeded: firstSequence + i), boardTime: time, raw: raw).encode(into: &wire)
            timed.append(TimedSample(timeMicros: UInt64(time), sequence: UInt8(truncatingIfNeeded: firstSequence + i), raw: raw))
        }
        return (wire, timed)
    }

    /// What the session must send for `samples`: TiltEngine run directly, ticks numbered from `firstSequence`.
    static func expectedOffsets(_ samples: [TimedSample], engine start: TiltEngine? = nil, firstSequence: UInt8 = 0) -> [OffsetsFrame] {
        var engine = start ?? engine()
        var frames: [OffsetsFrame] = []
        var sequence = firstSequence
        for s in samples {
            engine.ingest(s) { tick in
                frames.append(OffsetsFrame(tick: tick, sequence: sequence))
                sequence &+= 1
            }
        }
        return frames
    }
}

/// Records what a session emits, like swift-nio's EmbeddedChannel outbound buffer.
struct Outbox {
    var events: [HostEvent] = []
    var offsets: [OffsetsFrame] { events.compactMap { if case .tick(_, let w) = $0 { w.frame } else { nil } } }
    var wire: [UInt8] {
        var bytes: [UInt8] = []
        for case .tick(_, let w) in events { bytes += w.bytes }
        return bytes
    }
    var others: [HostEvent] { events.filter { if case .tick = $0 { false } else { true } } }

    mutating func feed(_ session: inout HostSession, _ bytes: [UInt8], at host: UInt64 = 0, chunk: Int = .max) {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            session.receive(Array(bytes[start..<end]), at: HostTime(micros: host)) { events.append($0) }
            start = end
        }
    }
}
