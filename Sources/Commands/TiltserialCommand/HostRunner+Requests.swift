import SerialIO
import TiltPipeline

/// What a byte on the run's wake-up pipe asks for: the pipe's own request
/// type (SerialIO's `WakeUpPipe.Request`).
typealias WakeRequest = WakeUpPipe.Request

extension HostRunner {
    /// The wake-up pipe woke the loop: read what it asks for. A stop stays
    /// pending in the pipe (as `WakeUpPipe` promises) after the driver heard it;
    /// any byte that is not a view request counts as a stop.
    func wokenUp(_ driver: inout HostDriver, _ pipe: WakeUpPipe) {
        var stop = false
        let sawAny = pipe.drain { byte in
            switch WakeRequest(rawValue: byte) {
            case .redraw?:
                pendingRefresh = true
            case .recalibrate?:
                recorder?.append(UnsafeRawBufferPointer(start: nil, count: 0), .recalibrated, at: tick())
                driver.recalibrate(at: lastNow) { perform($0) }
                pendingRefresh = true
            case .stop?, nil:
                stop = true
            }
        }
        if stop || !sawAny {
            pipe.wake()
            driver.stop(at: tick()) { perform($0) }
        }
    }
}
