import Testing
import TiltCore
import TiltPhysics
import WireProtocol
@testable import TiltPipeline

/// A swapped pair of SAMPLE frames, or a board time stepping back, must not move
/// the physics' clock: the late frame is dropped, the ticks are the ones the
/// in-order stream gives (docs/protocol.md, "Reordered and duplicate frames").
@Suite struct ReorderedSampleTests {
    static func wire(_ order: [Int], boardTime: (Int) -> UInt32 = { UInt32(1000 + $0 * 1000) }) -> [UInt8] {
        var bytes = Fixture.hello().encoded()
        for i in order {
            SampleFrame(sequence: UInt8(truncatingIfNeeded: i), boardTime: boardTime(i), raw: Fixture.raw(i)).encode(into: &bytes)
        }
        return bytes
    }

    @Test func aSwappedPairRunsTheSameTicksAsTheStreamWithoutTheLateFrame() {
        var order = Array(0..<1000)
        order.swapAt(500, 501)
        var session = Fixture.session(), reference = Fixture.session()
        var out = Outbox(), expected = Outbox()
        out.feed(&session, Self.wire(order))
        expected.feed(&reference, Self.wire(order.filter { $0 != 500 }))
        #expect(out.offsets.count == 33, "1 s of 30 ms ticks, no jump (\(out.offsets.count))")
        #expect(out.events == expected.events)
        #expect(session.counters.decoder.reorderedFrames == 1 && session.counters.lostFrames == 0)
        #expect(session.counters.samples == 999)
    }

    @Test func aBoardTimeSteppingBackDoesNotJumpThePhysics() {
        let order = Array(0..<1000)
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Self.wire(order) { i in UInt32(i == 500 ? 1000 + 499 * 1000 - 200 : 1000 + i * 1000) })
        #expect(out.offsets.count == 33, "\(out.offsets.count) ticks")
        #expect(session.lastSampleTime == BoardTime(micros: 1000 + 999 * 1000))
    }
}
