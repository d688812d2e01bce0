import TiltCore
import Testing
import WireProtocol

@Suite struct TextReaderTests {
    /// What MPU6050_raw prints after a reset at 38400 baud: banners, then data, CRLF.
    static let i2cdevlibCapture = Array((
        "\u{FF}\u{FE}Initializing I2C devices...\r\n"  // reset glitch bytes before the banner
        + "Testing device connections...\r\n"
        + "MPU6050 connection successful\r\n"
        + "a/g:\t-1204\t312\t16012\t-23\t11\t-5\r\n"
        + "a/g:\t-1190\t301\t16044\t-20\t9\t-4\r\n"
        + "a/g:\t32767\t-32768\t0\t0\t0\t0\r\n"
        + "a/g:\t40000\t1\t2\t3\t4\t5\r\n"  // out of Int16: malformed
        + "a/g:\t1\t2\t3\t4\t5\r\n"  // five fields: malformed
        + "a/g:\t1\t2\t3\t4\t5\t6\t7\r\n"  // seven fields: malformed
        + "a/g:\t1\t2\t3\t4\t5\t6  \r\n"  // trailing spaces are fine
    ).utf8)

    static func read<Format>(_ reader: inout TextSampleReader<Format>, _ bytes: [UInt8], chunk: Int, startMicros: UInt64 = 1000) -> [TimedSample] {
        var samples: [TimedSample] = []
        var start = 0
        var time = startMicros
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            reader.feed(Array(bytes[start..<end]), receivedAt: HostTime(micros: time)) { samples.append($0) }
            start = end
            time += 10
        }
        return samples
    }

    @Test(arguments: [1, 2, 3, 7, 40, 10_000])
    func i2cdevlibCaptureInAnyChunking(chunk: Int) {
        var reader = I2CDevLibReader()
        let samples = Self.read(&reader, Self.i2cdevlibCapture, chunk: chunk)
        #expect(samples.map(\.raw) == [
            RawSample(accel: Axes3(x: -1204, y: 312, z: 16012), temperature: 0, gyro: Axes3(x: -23, y: 11, z: -5)),
            RawSample(accel: Axes3(x: -1190, y: 301, z: 16044), temperature: 0, gyro: Axes3(x: -20, y: 9, z: -4)),
            RawSample(accel: Axes3(x: 32767, y: -32768, z: 0), temperature: 0, gyro: Axes3(x: 0, y: 0, z: 0)),
            RawSample(accel: Axes3(x: 1, y: 2, z: 3), temperature: 0, gyro: Axes3(x: 4, y: 5, z: 6)),
        ])
        #expect(samples.map(\.sequence) == [0, 1, 2, 3])
        #expect(reader.counters.samples == 4)
        #expect(reader.counters.ignoredLines == 3)
        #expect(reader.counters.malformedLines == 3)
        #expect(reader.counters.overlongLines == 0)
    }

    @Test func samplesAreStampedWithTheChunkThatEndsTheirLine() {
        var reader = I2CDevLibReader()
        let line = Array("a/g:\t1\t2\t3\t4\t5\t6\r\n".utf8)
        var times: [UInt64] = []
        reader.feed(Array(line[0..<10]), receivedAt: HostTime(micros: 100)) { times.append($0.timeMicros) }
        reader.feed(Array(line[10...]) + line, receivedAt: HostTime(micros: 250)) { times.append($0.timeMicros) }
        #expect(times == [250, 250])
    }

    @Test func overlongLinesAreCountedAndReadingGoesOn() {
        var reader = I2CDevLibReader()
        let long = "a/g:\t" + String(repeating: "1", count: 300) + "\r\n"
        let text = Array((long + "a/g:\t1\t2\t3\t4\t5\t6\n" + String(repeating: "x", count: 129) + "\r" + "a/g: 7 8 9 10 11 12\r").utf8)
        let samples = Self.read(&reader, text, chunk: 33)
        #expect(samples.map(\.raw.accel.x) == [1, 7])
        #expect(reader.counters.overlongLines == 2)
        #expect(reader.counters.malformedLines == 0)
        #expect(reader.pendingByteCount == 0)
    }

    @Test func motionCalLinesConvertToMPU6050Counts() {
        // As Adafruit's calibration sketches print them; the Uni: lines are ignored.
        let capture = Array((
            "Raw:-104,12,8190,3,-2,0,-312,45,-410\r\n"
            + "Uni:-0.12,0.01,9.80,0.0012,-0.0008,0.0000,-31.25,4.50,-41.00\r\n"
            + "Raw:20000,-20000,0,4000,-4000,125,0,0,0\r\n"
            + "Raw:1,2,3,4,5,6,7,8\r\n"  // 8 fields: malformed
            + "Raw: 1, 2 ,3,16,-16,0,1,2,3\r\n"
        ).utf8)
        for chunk in [1, 5, 64, 1000] {
            var reader = MotionCalReader()
            let samples = Self.read(&reader, capture, chunk: chunk)
            #expect(samples.map(\.raw) == [
                // accel × 2; gyro × 1024/125 rounded (3 → 24.576 → 25; −2 → −16.384 → −16)
                RawSample(accel: Axes3(x: -208, y: 24, z: 16380), temperature: 0, gyro: Axes3(x: 25, y: -16, z: 0)),
                // clamped to Int16; 125 × 8.192 = 1024 exactly
                RawSample(accel: Axes3(x: 32767, y: -32768, z: 0), temperature: 0, gyro: Axes3(x: 32767, y: -32768, z: 1024)),
                RawSample(accel: Axes3(x: 2, y: 4, z: 6), temperature: 0, gyro: Axes3(x: 131, y: -131, z: 0)),
            ])
            #expect(reader.counters.samples == 3)
            #expect(reader.counters.ignoredLines == 1)
            #expect(reader.counters.malformedLines == 1)
        }
    }

    @Test func motionCalOneGReadsOneGAfterConversion() {
        // 1 g in MotionCal units (8192) becomes 1 g at ±2 g (16384 counts), and
        // 250 °/s (4000) becomes full scale, 32768 counts, clamped to 32767.
        #expect(MotionCalFormat.accel(8192) == 16384)
        #expect(MotionCalFormat.gyro(16) == 131)  // 1 °/s = 131.072 counts
        #expect(MotionCalFormat.gyro(4000) == 32767)
        #expect(MotionCalFormat.gyro(-1) == -8)  // −8.192
    }
}
