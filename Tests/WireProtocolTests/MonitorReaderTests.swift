import Testing
import TiltCore
import WireProtocol

/// `tiltserial monitor`'s splitter: text lines, frames and other bytes out of
/// one stream, in order, whatever the chunking.
@Suite struct MonitorReaderTests {
    enum Piece: Equatable, CustomStringConvertible {
        case text(String), frame(Frame), bytes([UInt8])

        init(_ item: MonitorItem) {
            switch item {
            case .text(let b): self = .text(String(decoding: b, as: UTF8.self))
            case .frame(let f): self = .frame(f)
            case .bytes(let b): self = .bytes(Array(b))
            }
        }

        var description: String {
            switch self {
            case .text(let t): "text(\(t.debugDescription))"
            case .frame(let f): MonitorLine.line(f)
            case .bytes(let b): "bytes(\(b))"
            }
        }
    }

    /// Everything `bytes` yields, fed in chunks of `chunk` bytes (0: whole), then flushed.
    func pieces(_ bytes: [UInt8], chunk: Int = 0, flush: Bool = true) -> [Piece] {
        var reader = MonitorReader()
        var out: [Piece] = []
        let step = chunk == 0 ? max(bytes.count, 1) : chunk
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + step)
            reader.feed(Array(bytes[start..<end])) { out.append(Piece($0)) }
            start = end
        }
        if flush { reader.flush { out.append(Piece($0)) } }
        return out
    }

    static func sample(_ seq: UInt8, t: UInt32 = 1_012_000) -> Frame {
        .sample(SampleFrame(sequence: seq, boardTime: t, raw: RawSample(
            accel: Axes3(x: -120, y: 8012, z: 14100), temperature: -1520, gyro: Axes3(x: 3, y: -4, z: 1))).timed)
    }

    static let hello = Frame.hello(HelloFrame(firmwareMajor: 1, firmwareMinor: 2, firmwarePatch: 3, accelFullScaleSelect: 0,
                                              gyroFullScaleSelect: 1, sampleRateHz: 100, contentTileID: 0xD826, status: 3))

    @Test func framesComeOutDecodedOnePerLine() {
        let frames: [Frame] = [
            Self.hello, Self.sample(12), .pong(PongFrame(token: 42)),
            .offsets(OffsetsFrame(sequence: 3, viewportX: 12, viewportY: 40, ribbonX: 250, ribbonBottom: 15, flags: [.fired, .engaged])),
            .hostHello(HostHelloFrame()), .ping(PingFrame(token: 7)),
            .configure(ConfigureFrame(sampleRateHz: 200, accelFullScaleSelect: 1, gyroFullScaleSelect: 0)),
        ]
        let out = pieces(frames.flatMap { $0.encoded() })
        #expect(out == frames.map { .frame($0) })
        #expect(out.map { "\($0)" } == [
            "HELLO protocol=1 firmware=1.2.3 accel=±2g gyro=±500dps rate=100Hz display=128x64 tile=0xD826 sensor=ok display=ok",
            "SAMPLE seq=12 t=1012000 ax=-120 ay=8012 az=14100 temp=-1520 gx=3 gy=-4 gz=1",
            "PONG token=42",
            "OFFSETS seq=3 x=12 y=40 ribbon_x=250 ribbon_bottom=15 flags=fired,engaged",
            "HOST_HELLO protocol=1",
            "PING token=7",
            "CONFIGURE rate=200Hz afs_sel=1 fs_sel=0",
        ])
    }

    /// Our firmware's first byte as it boots is a lone delimiter (so a frame a
    /// reset cut short ends there): no `HEX 00` line for it. A second zero,
    /// or one later among other bytes, is still shown.
    @Test func theBootDelimiterIsNoLineButOtherZerosAre() {
        #expect(pieces([0x00] + Self.hello.encoded()) == [.frame(Self.hello)])
        #expect(pieces([0x00, 0x00] + Self.hello.encoded()) == [.bytes([0x00]), .frame(Self.hello)])
        #expect(pieces(Array("hi\n".utf8) + [0x00]) == [.text("hi"), .bytes([0x00])])
    }

    @Test func textLinesEndInLFCRLFOrCRAndBlankLinesStay() {
        let out = pieces(Array("a\r\nb\n\nc\rd\n°C: 21.5\tok\r\n".utf8))
        #expect(out == [.text("a"), .text("b"), .text(""), .text("c"), .text("d"), .text("°C: 21.5\tok")])
    }

    /// A bidirectional override, mark or isolate, or a line separator, would
    /// reorder or split what the terminal shows (the board could make a line
    /// read as another): such a line is shown as its bytes. Other UTF-8 stays text.
    @Test func aLineWithBidiControlsIsShownAsBytes() {
        for control in ["\u{202E}", "\u{2066}", "\u{200F}", "\u{2028}"] {
            let line = Array("temp \(control)12.5\n".utf8)
            #expect(pieces(line) == [.bytes(Array(line.dropLast()))], "\(control.unicodeScalars.first!.value)")
        }
        #expect(pieces(Array("zero\u{200B}width ok\n".utf8)) == [.text("zero\u{200B}width ok")])
    }

    @Test func aLineIsShownWhenItsEndArrives() {
        var reader = MonitorReader()
        var out: [Piece] = []
        reader.feed(Array("Booting... ok\r\n".utf8)) { out.append(Piece($0)) }
        #expect(out == [.text("Booting... ok")])  // not waiting for the next byte or a flush
    }

    @Test func textAndFramesMixInOrder() {
        let stream = Array("Booting\r\n".utf8) + Self.hello.encoded() + Array("note: rate 100\n".utf8)
            + Self.sample(0).encoded() + Array("tail".utf8) + Self.sample(1).encoded()
        let expected: [Piece] = [.text("Booting"), .frame(Self.hello), .text("note: rate 100"), .frame(Self.sample(0)),
                                 .text("tail"), .frame(Self.sample(1))]
        for chunk in [0, 1, 2, 3, 7, 22] {
            #expect(pieces(stream, chunk: chunk) == expected, "chunk \(chunk)")
        }
    }

    /// A frame's first (COBS code) byte can be a LF or CR; right after a text
    /// line it is still the frame's, and no blank line appears.
    @Test func aFrameWhoseCodeByteIsALineEndFollowsText() {
        // The code byte is 1 + the index of the payload's first zero: az's high byte (9), temperature's low byte (12).
        let lf = Frame.sample(SampleFrame(sequence: 1, boardTime: 0x010101, raw: RawSample(
            accel: Axes3(x: 0x0101, y: 0x0101, z: 0x0001), temperature: 0x0101, gyro: Axes3(x: 1, y: 1, z: 1))).timed)
        let cr = Frame.sample(SampleFrame(sequence: 1, boardTime: 0x010101, raw: RawSample(
            accel: Axes3(x: 0x0101, y: 0x0101, z: 0x0101), temperature: 0x0100, gyro: Axes3(x: 1, y: 1, z: 1))).timed)
        #expect(lf.encoded().first == 0x0A)
        #expect(cr.encoded().first == 0x0D)
        for frame in [lf, cr] {
            let stream = Array("ok\n".utf8) + frame.encoded() + Array("ok\r\n".utf8) + frame.encoded() + Array("\n\nend\n".utf8)
            for chunk in [0, 1] {
                #expect(pieces(stream, chunk: chunk) == [.text("ok"), .frame(frame), .text("ok"), .frame(frame), .text(""), .text(""), .text("end")],
                        "\(frame) chunk \(chunk)")
            }
        }
    }

    @Test func otherBytesComeAsHexAndTheNextFrameIsDecoded() {
        var damaged = Self.sample(5).encoded()
        damaged[8] ^= 0x04
        let stream: [UInt8] = [0x8F, 0x13, 0xFE, 0x00] + damaged + Self.sample(6).encoded()
        let out = pieces(stream)
        #expect(out == [.bytes([0x8F, 0x13, 0xFE, 0x00]), .bytes(Array(damaged.prefix(16))), .bytes(Array(damaged.dropFirst(16))),
                        .frame(Self.sample(6))])
        let hex = [UInt8]([0x8F, 0x13, 0x0A]).withUnsafeBytes { MonitorLine.line(.bytes($0)) }
        #expect(hex == "HEX 8f 13 0a")
    }

    @Test func drawerAndPinFramesReadAsTheirFields() {
        let drawer = Frame.drawer(DrawerFrame(height: 22, shown: 22, scroll: -20, current: 1, dragItem: 0xFF, dragLeft: 0, dragTop: 0, pinCount: 3))
        let pin = Frame.pin(PinFrame(slot: 2, item: 3, x: 300, y: 140))
        #expect(pieces(drawer.encoded() + pin.encoded()) == [.frame(drawer), .frame(pin)])
        #expect(MonitorLine.line(drawer) == "DRAWER height=22 shown=22 scroll=-20 current=1 drag=-@0,0 pins=3")
        #expect(MonitorLine.line(pin) == "PIN slot=2 item=3 x=300 y=140")
    }

    @Test func noiseStaysOneBlockOfHex() {
        // A wrong baud rate: mostly high bytes, some printable ones among them.
        var random = SplitMix64(seed: 7)
        let noise: [UInt8] = [0x05] + (0..<40).map { _ in random.byte() | 0x80 }
        let out = pieces(noise + [0x80, 0x41, 0x42, 0x43, 0x80])  // "ABC" among bytes: too short for text
        #expect(out.allSatisfy { if case .bytes = $0 { true } else { false } }, "\(out)")
        let shown: [UInt8] = out.flatMap { piece -> [UInt8] in if case .bytes(let b) = piece { b } else { [] } }
        #expect(shown == noise + [0x80, 0x41, 0x42, 0x43, 0x80])
    }

    @Test func controlCharactersAndBadUTF8NeverReachTheTerminalAsText() {
        let out = pieces(Array("red \u{1B}[31mX\n".utf8) + [0xC3, 0x28, 0x0A] + Array("fine\n".utf8))
        #expect(out == [.text("red "), .bytes([0x1B]), .text("[31mX"), .bytes([0xC3, 0x28]), .text("fine")])
    }

    @Test func longLinesComeInPiecesWithoutABlankLine() {
        let long = String(repeating: "x", count: MonitorReader.lineLimit + 10)
        let out = pieces(Array((long + "\nnext\n").utf8))
        #expect(out == [.text(String(long.prefix(MonitorReader.lineLimit))), .text("xxxxxxxxxx"), .text("next")])
    }

    @Test func aQuietLineIsShownOnFlushAndItsEndAddsNoBlankLine() {
        var reader = MonitorReader()
        var out: [Piece] = []
        reader.feed(Array("Initializing...".utf8)) { out.append(Piece($0)) }
        #expect(out.isEmpty)
        #expect(reader.pendingByteCount == 15)
        reader.flush { out.append(Piece($0)) }
        reader.feed(Array(" done\r\nnext\n".utf8)) { out.append(Piece($0)) }
        #expect(out == [.text("Initializing..."), .text(" done"), .text("next")])
        #expect(reader.pendingByteCount <= 1)  // at most the held line end
    }

    @Test func idleFillerBetweenFramesIsNotShown() {
        let stream = Self.sample(0).encoded() + [0x00, 0x00] + Self.sample(1).encoded()
        #expect(pieces(stream) == [.frame(Self.sample(0)), .frame(Self.sample(1))])
    }

    /// Random interleavings of frames and text lines come out exactly as they
    /// went in, in any chunking: nothing lost, nothing invented.
    @Test func randomMixturesRoundTrip() {
        var random = SplitMix64(seed: 0x70_6E)
        for round in 0..<40 {
            var stream: [UInt8] = []
            var expected: [Piece] = []
            for _ in 0..<random.int(1...30) {
                if random.chance(0.6) {
                    let frame = Self.sample(random.byte(), t: UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF)
                    stream += frame.encoded()
                    expected.append(.frame(frame))
                } else {
                    let words = ["ok", "rate=100", "Temperature: 21.5 °C", "MPU6050 connection successful", "a/g:"]
                    let text = (0..<random.int(1...4)).map { _ in words[random.int(0...(words.count - 1))] }.joined(separator: " ")
                    stream += Array(text.utf8) + (random.chance(0.5) ? [0x0D, 0x0A] : [0x0A])
                    expected.append(.text(text))
                }
            }
            let chunk = [0, 1, 5, 64][round % 4]
            #expect(pieces(stream, chunk: chunk) == expected, "round \(round)")
        }
    }
}
