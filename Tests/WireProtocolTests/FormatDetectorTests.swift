import TiltCore
import Testing
import WireProtocol

@Suite struct FormatDetectorTests {
    static func detect(_ bytes: [UInt8], chunk: Int = 16, limit: Int = 2048) -> (FormatDetection, FormatDetector) {
        var detector = FormatDetector(limit: limit)
        var start = 0
        while start < bytes.count, detector.result == .undecided {
            let end = min(bytes.count, start + chunk)
            detector.feed(Array(bytes[start..<end]))
            start = end
        }
        return (detector.finish(), detector)
    }

    @Test func binaryStreamJoinedMidFrame() {
        var stream: [UInt8] = []
        for index in 0..<5 { sampleFrame(index).encode(into: &stream) }
        let (result, detector) = Self.detect(Array(stream.dropFirst(9)))  // starts inside a frame
        #expect(result == .found(.binaryProtocol))
        // The bytes seen can be replayed: a fresh decoder gets the frames the detector saw.
        let (frames, _) = decodeAll(detector.seenBytes)
        #expect(!frames.isEmpty)
    }

    @Test func i2cdevlibAfterBanners() {
        let (result, _) = Self.detect(TextReaderTests.i2cdevlibCapture, chunk: 5)
        #expect(result == .found(.i2cdevlib))
    }

    @Test func motionCal() {
        let text = Array("Raw:-104,12,8190,3,-2,0,-312,45,-410\r\nRaw:-98,10,8188,2,-1,1,-310,44,-411\r\n".utf8)
        #expect(Self.detect(text).0 == .found(.motionCal))
    }

    @Test func unknownTextBinaryAndNothing() {
        let text = Array(String(repeating: "Hello from some other sketch: 12.5 C\r\n", count: 100).utf8)
        #expect(Self.detect(text, limit: 1000).0 == .unknown(seen: .text))
        var random = SplitMix64(seed: 3)
        // Noise without zeros, as a wrong baud rate gives.
        let noise = (0..<3000).map { _ in UInt8.random(in: 1...255, using: &random) }
        #expect(Self.detect(noise, limit: 1000).0 == .unknown(seen: .binary))
        #expect(Self.detect([]).0 == .unknown(seen: .nothing))
    }

    @Test func undecidedUntilEnoughBytes() {
        var detector = FormatDetector()
        #expect(detector.feed(Array("a/g:\t1\t2".utf8)) == .undecided)
        #expect(detector.seen == .text)
        #expect(detector.feed(Array("\t3\t4\t5\t6\r\n".utf8)) == .found(.i2cdevlib))
        #expect(detector.seenBytes.count == 18)
    }

    @Test func theDecidingChunkIsKeptWhole() {
        var detector = FormatDetector(limit: 10)
        let text = Array("a/g:\t1\t2\t3\t4\t5\t6\r\nMORE".utf8)
        #expect(detector.feed(text) == .found(.i2cdevlib))
        #expect(detector.seenBytes == text)  // nothing of the chunk is lost
        #expect(detector.feed(Array("x".utf8)) == .found(.i2cdevlib))
        #expect(detector.seenBytes == text)  // after the decision nothing more is kept
    }
}
