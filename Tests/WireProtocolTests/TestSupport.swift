import TiltCore
import WireProtocol

/// Feeds `bytes` to a fresh-or-given decoder in chunks of the given sizes (cycled).
func decodeAll(_ bytes: [UInt8], chunks: [Int] = [], decoder: inout FrameDecoder) -> [Frame] {
    var frames: [Frame] = []
    bytes.withUnsafeBytes { all in
        if chunks.isEmpty {
            decoder.feed(all) { frames.append($0) }
            return
        }
        var start = 0
        var chunkIndex = 0
        while start < all.count {
            let end = min(all.count, start + chunks[chunkIndex % chunks.count])
            decoder.feed(UnsafeRawBufferPointer(rebasing: all[start..<end])) { frames.append($0) }
            start = end
            chunkIndex += 1
        }
    }
    return frames
}

func decodeAll(_ bytes: [UInt8], chunks: [Int] = []) -> (frames: [Frame], counters: DecoderCounters) {
    var decoder = FrameDecoder()
    let frames = decodeAll(bytes, chunks: chunks, decoder: &decoder)
    return (frames, decoder.counters)
}

/// A distinct, recognisable sample for frame number `index`.
func rawSample(_ index: Int) -> RawSample {
    RawSample(
        accel: Axes3(
            x: Int16(truncatingIfNeeded: index), y: Int16(truncatingIfNeeded: index >> 16),
            z: Int16(truncatingIfNeeded: 16384 - index % 977)),
        temperature: Int16(truncatingIfNeeded: -1600 + index % 50),
        gyro: Axes3(
            x: Int16(truncatingIfNeeded: index &* 7), y: Int16(truncatingIfNeeded: -index), z: 0))
}

/// Frame number encoded by `rawSample(_:)`.
func frameIndex(of raw: RawSample) -> Int {
    Int(UInt16(bitPattern: raw.accel.x)) | Int(UInt16(bitPattern: raw.accel.y)) << 16
}

func hello(rateHz: UInt16 = 500) -> HelloFrame {
    HelloFrame(
        firmwareMajor: 0, firmwareMinor: 1, firmwarePatch: 0, accelFullScaleSelect: 0, gyroFullScaleSelect: 0,
        sampleRateHz: rateHz, contentTileID: 0xBEEF, status: 3)
}

func sampleFrame(_ index: Int, periodMicros: Int = 2000) -> SampleFrame {
    SampleFrame(sequence: UInt8(truncatingIfNeeded: index), boardTime: UInt32(truncatingIfNeeded: index * periodMicros), raw: rawSample(index))
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }.joined(separator: " ")
}

func bytes(fromHex text: Substring) -> [UInt8]? {
    var result: [UInt8] = []
    for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
        guard token.count == 2, let byte = UInt8(token, radix: 16) else { return nil }
        result.append(byte)
    }
    return result
}

extension Frame {
    var sample: TimedSample? {
        if case .sample(let sample) = self { return sample }
        return nil
    }
}
