import Testing
import TiltCore
import WireProtocol
@testable import TiltPipeline

/// `StreamReader`: the stream's front end, as `calibrate` taps it: the
/// readings, scaled by HELLO's full scales on the sensor's own axes.
@Suite struct StreamReaderTests {
    @Test func binaryFramesComeOutScaledByTheirHello() {
        let hello = Fixture.hello(accel: 1)  // ±4 g: 8192 counts per g (MPU-6050 datasheet, AFS_SEL 1)
        var wire = hello.encoded()
        SampleFrame(sequence: 0, boardTime: 5000, raw: RawSample(accel: Axes3(x: 8192, y: -4096, z: 0))).encode(into: &wire)
        var stream = StreamReader()
        var events: [StreamReader.Event] = []
        // In two chunks, split inside a frame.
        stream.receive(Array(wire[..<7]), at: HostTime(micros: 1)) { events.append($0) }
        stream.receive(Array(wire[7...]), at: HostTime(micros: 2)) { events.append($0) }
        #expect(events.count == 3)
        #expect(events.first == .formatDetected(.binaryProtocol))
        #expect(events.dropFirst().first == .frame(.hello(hello)))
        guard case .sample(let timed)? = events.last else {
            Issue.record("\(events)")
            return
        }
        #expect(timed.timeMicros == 5000)
        var sensor = SampleConverter()
        let adopted = sensor.adoptRanges(of: hello)
        #expect(adopted)
        #expect(sensor.accelRange == .g4)
        // iOS convention: the MPU-6050's reading negated; no axis mapping.
        #expect(sensor.convert(timed.raw).accel == Axes3(x: Fixed(raw: -65536), y: Fixed(raw: 32768), z: Fixed(raw: 0)))
        #expect(stream.decoderCounters.framesDecoded == 2)
    }

    @Test func aHelloWithUnknownSelectsLeavesTheRangesAlone() {
        var hello = Fixture.hello(accel: 1)
        hello.accelFullScaleSelect = 4  // AFS_SEL is two bits: 0...3
        var sensor = SampleConverter(accelRange: .g8)
        let adopted = sensor.adoptRanges(of: hello)
        #expect(!adopted)
        #expect(sensor.accelRange == .g8)
    }

    @Test func textLinesAreStampedWithTheirReceiveTime() {
        let text = "MPU6050 connection successful\r\n" + (0..<20).map { _ in "a/g:\t16384\t0\t0\t0\t0\t0\r\n" }.joined()
        var stream = StreamReader()
        var times: [UInt64] = []
        var first: RawSample?
        stream.receive(Array(text.utf8), at: HostTime(micros: 77)) { event in
            if case .sample(let timed) = event {
                times.append(timed.timeMicros)
                first = first ?? timed.raw
            }
        }
        #expect(stream.format == .i2cdevlib)
        #expect(times.count == 20 && times.allSatisfy { $0 == 77 })
        #expect(first?.accel.x == 16384)
        #expect(stream.textCounters.samples == 20)
    }
}
