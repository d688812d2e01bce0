import Foundation
import Testing
import TiltAssets
import WireProtocol
@testable import BoardEmulator

/// Frame sync on our firmware in simavr, in simulated time: a frame READY
/// leaves the board its lead (TILT_PIPE_READY_LEAD_US, 6 ms of bus time)
/// before the latch it announces, and the latch it announces is the one that
/// comes. Both are what the host's freshest-view timing stands on
/// (docs/protocol.md, "READY"). Exact, whatever the machine's load.
@Suite struct FrameSyncTimingTests {
    /// A frame READY: the latch it announces (board µs, unwrapped from its 24
    /// bits) and the simulated µs its last byte had left the UART.
    struct Ready {
        var announced: UInt64
        var received: UInt64
    }

    /// The firmware with SYNC 1 from 250 ms, and a new view every 4 ms from
    /// 300 ms (more often than the glass can draw, so every frame has a
    /// successor to announce) until 1.5 s.
    static func run() throws -> (readies: [Ready], frames: [GlassFrame]) {
        let art = try TiltAssets.load()
        let machine = try AVRMachine(.init(firmwarePath: try BuiltFirmware.tiltserial()))
        machine.recordGlassStats(renderer: art.renderer)
        var decoder = FrameDecoder()
        var readies: [Ready] = []
        var synced = false
        var next: UInt64 = 300_000, k = 0
        while machine.simulatedMicros < 1_500_000 {
            machine.run(untilMicros: machine.simulatedMicros + 20)
            let now = machine.simulatedMicros
            if !synced, now >= 250_000 {
                #expect(machine.sendSerial(SyncFrame(enabled: true).encoded()) > 0)
                synced = true
            }
            if now >= next {
                #expect(machine.sendSerial(GlassStatsTests.view(k).encoded()) > 0)
                k += 1
                next += 4_000
            }
            decoder.feed(machine.takeSerialOutput()) {
                guard case .ready(let ready) = $0, !ready.idle else { return }
                // The latch is ahead of now by less than 2^23 µs: unwrap the 24 bits next to now.
                var announced = (now & ~0xFF_FFFF) | UInt64(ready.boardTime)
                if announced + 0x80_0000 < now { announced += 0x100_0000 }
                readies.append(Ready(announced: announced, received: now))
            }
        }
        #expect(machine.haltReason == nil)
        return (readies, try #require(machine.glassStats).frames)
    }

    @Test func readyLeavesItsLeadBeforeTheLatchItAnnounces() throws {
        let (readies, frames) = try Self.run()
        let drawn = frames.filter { $0.photonMicros > 300_000 }
        #expect(drawn.count >= 30, "\(drawn.count) frames in 1.2 s of views changing every 4 ms")
        #expect(abs(readies.count - drawn.count) <= 1, "\(readies.count) frame READYs for \(drawn.count) frames")
        // 6 ms of bus time before the latch, less the line: the READY's own
        // bytes and one SAMPLE queued ahead of it, at 115 200 baud (86.8 µs a
        // byte), and less a loop pass (the check runs once a pass; a pass
        // pumps at most 32 display bytes, 0.75 ms, and renders 16 columns).
        let readyWire = UInt64(ReadyFrame(boardTime: 0xFF_FFFF, flags: 0).encoded().count)
        let sampleWire: UInt64 = 23  // TILT_SAMPLE_WIRE
        let lead: UInt64 = 6_000, byteMicros = 87.0, loopPass: UInt64 = 1_000
        let least = lead - UInt64(Double(readyWire + sampleWire) * byteMicros) - loopPass
        // The last page goes out after the latch: 131 bus bytes (its data and
        // a transaction's overhead) of nine SCL periods at 400 kHz, 22.5 µs.
        let lastPage: UInt64 = 131 * 45 / 2
        for (n, ready) in readies.enumerated() {
            #expect(ready.announced >= ready.received + least,
                    "READY \(n): its latch in \(Int64(ready.announced) - Int64(ready.received)) µs, under \(least)")
            // The frame on the bus when READY came ends on the glass at least
            // its last page after the latch announced, and less than two pages
            // after it (so the host's view, sent for that latch, makes the next frame).
            guard let photon = frames.first(where: { $0.photonMicros > ready.received })?.photonMicros else { continue }
            #expect(photon >= ready.announced + lastPage, "READY \(n): glass \(photon - ready.announced) µs after the latch announced")
            #expect(photon < ready.announced + 2 * lastPage + 1_000, "READY \(n): glass \(photon - ready.announced) µs after the latch announced")
        }
    }
}
