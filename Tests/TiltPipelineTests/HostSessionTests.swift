import Testing
import TiltCore
import TiltPhysics
import WireProtocol
@testable import TiltPipeline

@Suite struct HostSessionTests {
    @Test func binaryStreamGivesTheEnginesOffsetsFrameForFrame() {
        let stream = Fixture.samples(3000)
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello().encoded() + stream.wire)

        let expected = Fixture.expectedOffsets(stream.samples)
        #expect(expected.count == 99)  // 3 s of 30 ms ticks after the first sample at t0
        #expect(out.offsets == expected)
        // Smooth mode (the default) asks the board for READY after its HELLO,
        // and every HELLO's board is asked for its parts (DESCRIBE); a board
        // that answers neither (this one) gets the ticks' OFFSETS alone.
        #expect(out.others == [.formatDetected(.binaryProtocol), .hello(Fixture.hello()), .frameSync, .describeParts])
        #expect(Set(out.offsets.map(\.viewportX)).count > 10, "the motion moves the view")
        // The wire bytes are each frame's own encoding, decodable by the board.
        #expect(out.wire == expected.flatMap { $0.encoded() })
        #expect(session.counters.ticks == 99)
        #expect(session.counters.samples == 3000)
        #expect(session.counters.decoder.framesDecoded == 3001)
        #expect(session.counters.lostFrames == 0)
    }

    /// `calibrate`'s session: every sample as the board sent it (raw counts,
    /// board time), and nothing for the board: no tick, no OFFSETS, no SYNC.
    @Test func withoutPhysicsEverySampleIsReportedAsReceivedAndNothingIsSent() {
        let stream = Fixture.samples(300)
        var session = HostSession(engine: Fixture.engine(), hostTileID: Fixture.tileID, runsPhysics: false)
        var out = Outbox()
        out.feed(&session, Fixture.hello().encoded() + stream.wire, chunk: 50)
        let samples = stream.samples.map { HostEvent.sample($0) }
        #expect(out.events == [.formatDetected(.binaryProtocol), .hello(Fixture.hello()), .describeParts] + samples)
        #expect(session.counters.samples == 300 && session.counters.ticks == 0)
        #expect(session.nextTick == nil, "no tick to doze toward")
    }

    @Test func chunkSizeDoesNotChangeTheOutput() {
        let bytes = Fixture.hello().encoded() + Fixture.samples(700).wire
        var whole = Fixture.session(), split = Fixture.session()
        var a = Outbox(), b = Outbox()
        a.feed(&whole, bytes)
        b.feed(&split, bytes, chunk: 7)
        #expect(a.events == b.events)
        #expect(a.offsets.count == 23)
    }

    @Test func helloSetsTheAccelerometerRange() {
        let stream = Fixture.samples(2000)
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello(accel: 2).encoded() + stream.wire)
        let expected = Fixture.expectedOffsets(stream.samples, engine: Fixture.engine(converter: SampleConverter(accelRange: .g8)))
        #expect(out.offsets == expected)
        #expect(out.offsets != Fixture.expectedOffsets(stream.samples))
    }

    @Test func versionMismatchIsReportedAndStopsTheSession() {
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello(version: 2).encoded() + Fixture.samples(200).wire)
        #expect(out.others == [.formatDetected(.binaryProtocol), .hello(Fixture.hello(version: 2)), .versionMismatch(board: 2, host: 1)])
        #expect(out.offsets.isEmpty)
        #expect(session.halted)
    }

    @Test func tileMismatchIsAWarningAndTheSessionGoesOn() {
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello(tile: 0x1234).encoded() + Fixture.samples(100).wire)
        #expect(out.others.contains(.tileMismatch(board: 0x1234, host: Fixture.tileID)))
        #expect(out.offsets.count == 3)
    }

    @Test func boardResetKeepsThePhysicsAndRestartsTheLink() {
        // 2 s, then the board resets (HELLO, new time base from 500 µs, sequence 0), then 1 s more.
        let first = Fixture.samples(2000)
        let second = Fixture.samples(1000, start: 500, rawOffset: 2000)
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello().encoded() + first.wire + Fixture.hello().encoded() + second.wire)

        // The engine sees one continuous timeline: the new base joined at the last sample's time.
        let last = first.samples.last!.timeMicros
        let joined = first.samples + second.samples.map { s in
            TimedSample(timeMicros: s.timeMicros - 500 + last, sequence: s.sequence, raw: s.raw)
        }
        let continuous = Fixture.expectedOffsets(joined)
        let ticksBefore = Fixture.expectedOffsets(first.samples).count
        #expect(out.offsets.map(\.viewportX) == continuous.map(\.viewportX))
        #expect(out.offsets.map(\.viewportY) == continuous.map(\.viewportY))
        // OFFSETS numbering restarts at 0 with the link.
        #expect(out.offsets[ticksBefore].sequence == 0)
        #expect(out.offsets[ticksBefore - 1].sequence == UInt8(ticksBefore - 1))
        #expect(session.counters.hellos == 2)
        #expect(session.counters.lostFrames == 0)
    }

    @Test func replugWithoutHelloJoinsThePhysicsAndCountsNoLoss() {
        // 2 s, a cut-off frame, the unplug; back with a board that restarted but whose
        // HELLO went to no one: sequence 40, time base 300 ms, no HELLO.
        let first = Fixture.samples(2000)
        let second = Fixture.samples(1000, start: 300_000, firstSequence: 40, rawOffset: 2000)
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello().encoded() + first.wire + Array(first.wire.prefix(9)))
        session.linkRestarted()
        out.feed(&session, second.wire)

        let last = first.samples.last!.timeMicros
        let joined = first.samples + second.samples.map { s in
            TimedSample(timeMicros: s.timeMicros - 300_000 + last, sequence: s.sequence, raw: s.raw)
        }
        #expect(out.offsets.map(\.viewportX) == Fixture.expectedOffsets(joined).map(\.viewportX))
        #expect(session.counters.lostFrames == 0, "a replug is not a loss on the wire")
        #expect(session.counters.errors == 0, "the frame cut short by the unplug is dropped, not merged")
        #expect(session.counters.decoder.samplesDecoded == 3000)
    }

    @Test func damagedFramesAreCountedExactly() {
        var stream = Fixture.samples(100).wire
        // Flip a bit inside the 10th frame's body: one CRC error, one lost sample.
        let frameLength = Fixture.samples(1).wire.count
        stream[frameLength * 9 + 6] ^= 0x10
        var session = Fixture.session()
        var out = Outbox()
        out.feed(&session, Fixture.hello().encoded() + stream)
        #expect(session.counters.decoder.crcErrors == 1)
        #expect(session.counters.lostFrames == 1)
        #expect(session.counters.samples == 99)
        #expect(session.counters.errors == 1)
    }

    @Test func i2cdevlibTextIsDetectedAndStampedWithReceiveTimes() {
        var session = Fixture.session()
        var out = Outbox()
        let banner = Array("Initializing I2C devices...\r\nMPU6050 connection successful\r\n".utf8)
        out.feed(&session, banner, at: 0)
        var samples: [TimedSample] = []
        for i in 0..<200 {
            let raw = Fixture.raw(i)
            let line = "a/g:\t\(raw.accel.x)\t\(raw.accel.y)\t\(raw.accel.z)\t0\t0\t0\r\n"
            out.feed(&session, Array(line.utf8), at: UInt64(10_000 + i * 5000))
            samples.append(TimedSample(timeMicros: UInt64(10_000 + i * 5000), sequence: UInt8(i), raw: raw))
        }
        #expect(out.others.first == .formatDetected(.i2cdevlib))
        #expect(out.offsets == Fixture.expectedOffsets(samples))
        #expect(out.offsets.count == 33)
        #expect(session.counters.text.samples == 200)
        #expect(session.counters.text.ignoredLines == 2)
    }

    @Test func unknownStreamsSayWhatWasSeen() {
        var text = HostSession(engine: Fixture.engine(), hostTileID: nil, detectionLimit: 64)
        var binary = HostSession(engine: Fixture.engine(), hostTileID: nil, detectionLimit: 64)
        var out = Outbox()
        out.feed(&text, Array(String(repeating: "hello world\r\n", count: 6).utf8))
        out.feed(&binary, (0..<80).map { UInt8(truncatingIfNeeded: $0 * 37 + 1) | 0x80 })
        #expect(out.events.isEmpty)
        #expect(text.stream.detectionFailed && text.stream.seen == .text)
        #expect(binary.stream.detectionFailed && binary.stream.seen == .binary)
        let fresh = Fixture.session()
        #expect(!fresh.stream.detectionFailed && fresh.stream.seen == .nothing)
    }

    @Test func csvSamplesGoStraightIntoThePhysicsAndFiresAreReported() {
        // Tilt hard toward the top edge (content falls up), then keep pulling: the ribbon stretches and fires.
        var settings = PhysicsSettings()
        settings.mode = .smooth
        var session = Fixture.session(settings)
        var out = Outbox()
        var samples: [TimedSample] = []
        for i in 0..<6000 {
            let raw = RawSample(accel: Axes3(x: 0, y: 0, z: -16000))
            samples.append(TimedSample(timeMicros: UInt64(i) * 1000, sequence: UInt8(truncatingIfNeeded: i), raw: raw))
        }
        for s in samples { session.ingest(sample: s) { out.events.append($0) } }
        #expect(out.offsets == Fixture.expectedOffsets(samples, engine: Fixture.engine(settings)))
        let fires = out.events.compactMap { if case .fired(_, let n) = $0 { n } else { nil } }
        let firedTicks = out.offsets.filter { $0.flags.contains(.fired) }.count
        #expect(fires == Array(1...UInt64(max(firedTicks, 1))).prefix(firedTicks).map { $0 })
        #expect(session.counters.fires == UInt64(firedTicks))
    }
}

@Suite struct MotionCalSessionTests {
    @Test func motionCalRawLinesDriveThePhysics() {
        var session = Fixture.session()
        var out = Outbox()
        var samples: [TimedSample] = []
        for i in 0..<300 {
            let raw = Fixture.raw(i)
            let line = "Raw:\(raw.accel.x),\(raw.accel.y),\(raw.accel.z),0,0,0,10,20,30\r\n"
            out.feed(&session, Array(line.utf8), at: UInt64(i * 4000))
            samples.append(TimedSample(timeMicros: UInt64(i * 4000), sequence: UInt8(truncatingIfNeeded: i), raw: raw))
        }
        #expect(out.others == [.formatDetected(.motionCal)])
        #expect(out.offsets == Fixture.expectedOffsets(samples))
        #expect(out.offsets.count == 39)
        #expect(session.counters.text.samples == 300)
    }
}
