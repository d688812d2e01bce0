import Foundation
import SerialIO
import TiltCore
import WireProtocol
@testable import BoardEmulator

extension NativeBoard.Configuration {
    /// A free-running board with a fixed motion, for tests.
    static func test(rate: Int = 100, pace: BoardPace = .freeRunning, motion: any MotionSource = Motion(.script(Scenarios.tour)),
                     limit: UInt64? = nil, faults: FaultSpec = .none, link: String? = nil) -> Self {
        Self(sampleRateHz: rate, pace: pace, linkPath: link, motionSource: motion, faults: faults, sampleLimit: limit)
    }
}
