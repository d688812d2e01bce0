@testable import BoardEmulator
import FirmwareCore
import Foundation
import TestSupport
import Testing
import TiltCore
import WireProtocol

/// One firmware behaviour: for every rate the host can configure (4…1000 Hz),
/// the native board and the real firmware in simavr announce the rate the
/// firmware's C rule gives, and the native board samples at its exact period.
@Suite(.serialized) struct RateParityTests {
    /// CONFIGURE `rate`; the HELLO that answers it (and the samples after it, if asked).
    func configure(_ host: PtyPeer, _ rate: Int, samples: Int = 0) throws -> (HelloFrame, [TimedSample])? {
        host.frames.removeAll()
        try host.send(ConfigureFrame(sampleRateHz: UInt16(rate), accelFullScaleSelect: 0, gyroFullScaleSelect: 0))
        func after(_ frames: [Frame]) -> (HelloFrame, [TimedSample])? {
            guard let index = frames.firstIndex(where: { if case .hello = $0 { true } else { false } }),
                  case .hello(let hello) = frames[index] else { return nil }
            return (hello, frames[(index + 1)...].compactMap { if case .sample(let s) = $0 { s } else { nil } })
        }
        guard try host.read(timeout: .seconds(20), until: { (after($0.frames)?.1.count ?? -1) >= samples }) else { return nil }
        return after(host.frames)
    }

    @Test func nativeAndFirmwareAnnounceTheSameRateForAll997Rates() throws {
        let avr = try AVRBoard(.init(firmwarePath: BuiltFirmware.tiltserial(), pace: .freeRunning,
                                     motionSource: ConstantMotionSource.faceUp))
        let native = try NativeBoard(.test(rate: 100, pace: .freeRunning, motion: ConstantMotionSource.faceUp))
        let avrHost = try PtyPeer(opening: try #require(avr.serialPath))
        let nativeHost = try PtyPeer(opening: try #require(native.serialPath))
        avr.start()
        native.start()
        defer {
            avr.stop()
            native.stop()
        }
        // The boot HELLOs first, so each CONFIGURE's answer is the next HELLO.
        for host in [avrHost, nativeHost] {
            try #require(try host.read(timeout: .seconds(20)) { !$0.hellos.isEmpty && !$0.samples.isEmpty })
        }
        var mismatches: [String] = []
        for rate in 4...1000 {
            let rule = Int(tilt_rate_hz(tilt_rate_divider(UInt16(rate))))
            let period = UInt64(tilt_rate_period_us(tilt_rate_divider(UInt16(rate))))
            let fromNative = try #require(try configure(nativeHost, rate, samples: 2), "native: no HELLO after CONFIGURE \(rate)")
            let fromAVR = try #require(try configure(avrHost, rate), "firmware: no HELLO after CONFIGURE \(rate)")
            let gap = fromNative.1[1].timeMicros &- fromNative.1[0].timeMicros
            if Int(fromNative.0.sampleRateHz) != rule || Int(fromAVR.0.sampleRateHz) != rule || gap != period {
                mismatches.append("\(rate) Hz: rule \(rule), native \(fromNative.0.sampleRateHz) (every \(gap) µs), firmware \(fromAVR.0.sampleRateHz)")
            }
            if mismatches.count > 5 { break }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
