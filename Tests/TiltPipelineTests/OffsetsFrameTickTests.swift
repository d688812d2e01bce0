import Testing
import TiltCore
import TiltPhysics
import WireProtocol
@testable import TiltPipeline

struct OffsetsFrameTickTests {
    static func tick(viewport: (Int, Int), ribbon: (Int, Int), engaged: Bool, fired: Bool) -> Tick {
        Tick(time: BoardTime(micros: 0), index: 0, x: Fixed(raw: 0), y: Fixed(raw: 0), recipeOffsets: nil,
             viewportX: viewport.0, viewportY: viewport.1, stretch: Fixed(raw: 0),
             ribbonX: ribbon.0, ribbonBottom: ribbon.1, engaged: engaged, fired: fired, wiggling: false)
    }

    @Test func carriesTheTicksOffsetsFlagsAndSequence() {
        let frame = OffsetsFrame(tick: Self.tick(viewport: (100, 37), ribbon: (250, 15), engaged: true, fired: true), sequence: 9)
        #expect(frame == OffsetsFrame(sequence: 9, viewportX: 100, viewportY: 37, ribbonX: 250, ribbonBottom: 15, flags: [.fired, .engaged]))
        let idle = OffsetsFrame(tick: Self.tick(viewport: (0, 0), ribbon: (0, 0), engaged: false, fired: false), sequence: 0)
        #expect(idle.flags.isEmpty)
    }

    @Test func clampsToTheWiresSixteenBits() {
        let frame = OffsetsFrame(tick: Self.tick(viewport: (-5, 70_000), ribbon: (65_536, -1), engaged: false, fired: false), sequence: 1)
        #expect(frame.viewportX == 0)
        #expect(frame.viewportY == 65_535)
        #expect(frame.ribbonX == 65_535)
        #expect(frame.ribbonBottom == 0)
    }
}
