import Foundation
import SerialIO
import TiltCore
import WireProtocol
@testable import BoardEmulator

/// The host end of a board's pty: reads with a deadline (poll, no sleeping) into
/// a FrameDecoder and keeps what it decoded.
final class HostEnd {
    let port: TermiosTransport
    var decoder = FrameDecoder()
    var frames: [DecodedFrame] = []
    var keepFrames = true
    var gone = false
    /// The unwrapped board time of the last SAMPLE decoded (0 before any).
    var lastTime: UInt64 = 0
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(_ path: String) throws {
        port = try TermiosTransport.open(PortPath.resolve(path), baud: 115_200,
                                         options: SerialOptions(dtr: .leave, exclusive: false, backend: .termios))
    }

    deinit { port.close() }

    func send(_ frame: some WireFrame) throws {
        try frame.encoded().withUnsafeBytes { try port.write($0) }
    }

    var samples: [TimedSample] {
        frames.compactMap { if case .sample(let s) = $0 { s } else { nil } }
    }

    var hellos: [HelloFrame] {
        frames.compactMap { if case .hello(let h) = $0 { h } else { nil } }
    }

    /// Reads until `done` holds, the device goes away, or `timeout` passes.
    /// Returns whether `done` held.
    @discardableResult
    func read(timeout: Duration, until done: (HostEnd) -> Bool) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !done(self) {
            let left = deadline - ContinuousClock.now
            if left <= .zero || gone { return done(self) }
            do {
                guard try port.waitReadable(timeout: min(left, .milliseconds(100))) else { continue }
                while true {
                    let n = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
                    if n == 0 { break }
                    buffer.withUnsafeBytes { bytes in
                        decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<n])) { frame in
                            if case .sample(let s) = frame { lastTime = s.timeMicros }
                            if keepFrames { frames.append(frame) }
                        }
                    }
                    if done(self) { return true }
                }
            } catch SerialError.deviceGone(_) {
                gone = true
            }
        }
        return true
    }
}

extension NativeBoard.Configuration {
    /// A free-running board with a fixed motion, for tests.
    static func test(rate: Int = 100, pace: AVRPace = .freeRunning, motion: any MotionSource = Motion(.script(Scenarios.tour)),
                     limit: UInt64? = nil, faults: FaultSpec = .none, link: String? = nil) -> Self {
        Self(sampleRateHz: rate, pace: pace, linkPath: link, motionSource: motion, faults: faults, sampleLimit: limit)
    }
}
