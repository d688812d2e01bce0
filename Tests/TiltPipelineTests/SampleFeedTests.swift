import Testing
import TiltCore
import WireProtocol
@testable import TiltPipeline

/// `SampleFeed`: the readings in a stream, on the sensor's own axes, scaled by HELLO.
@Suite struct SampleFeedTests {
    @Test func binaryFramesComeOutScaledByTheirHello() {
        var wire = Fixture.hello(accel: 1).encoded()  // ±4 g: 8192 counts per g
        SampleFrame(sequence: 0, boardTime: 5000, raw: RawSample(accel: Axes3(x: 8192, y: -4096, z: 0))).encode(into: &wire)
        var feed = SampleFeed()
        var events: [SampleFeed.Event] = []
        // In two chunks, split inside a frame.
        feed.receive(Array(wire[..<7]), at: HostTime(micros: 1)) { events.append($0) }
        feed.receive(Array(wire[7...]), at: HostTime(micros: 2)) { events.append($0) }
        #expect(events.count == 3)
        #expect(events.first == .formatDetected(.binaryProtocol))
        guard case .sample(let timed, let sample)? = events.last else {
            Issue.record("\(events)")
            return
        }
        #expect(timed.timeMicros == 5000)
        // iOS convention: the MPU-6050's reading negated; no axis mapping.
        #expect(sample.accel == Axes3(x: Fixed(raw: -65536), y: Fixed(raw: 32768), z: Fixed(raw: 0)))
        #expect(feed.converter.accelRange == .g4)
    }

    @Test func textLinesAreStampedWithTheirReceiveTime() {
        let text = "MPU6050 connection successful\r\n" + (0..<20).map { _ in "a/g:\t16384\t0\t0\t0\t0\t0\r\n" }.joined()
        var feed = SampleFeed()
        var times: [UInt64] = []
        var first: MotionSample?
        feed.receive(Array(text.utf8), at: HostTime(micros: 77)) { event in
            if case .sample(let timed, let sample) = event {
                times.append(timed.timeMicros)
                first = first ?? sample
            }
        }
        #expect(feed.format == .i2cdevlib)
        #expect(times.count == 20 && times.allSatisfy { $0 == 77 })
        #expect(first?.accel.x == Fixed(raw: -65536))
    }
}
