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
        var redraw = false  // once, however many requests asked
        let sawAny = pipe.drain { byte in
            switch WakeRequest(rawValue: byte) {
            case .redraw?:
                redraw = true
            case .resumed?:
                driver.resumed(at: tick())
                redraw = true
            case .recalibrate?:
                recorder?.append(UnsafeRawBufferPointer(start: nil, count: 0), .recalibrated, at: tick())
                if let outcome = driver.recalibrate(at: lastNow) { output.recalibrated(outcome) }
                redraw = true
            case .stop?, nil:
                stop = true
            }
        }
        if stop || !sawAny {
            pipe.wake()
            let now = tick()
            drive(&driver) { $0.stop(at: now, $1) }
        }
        if redraw { output.refresh(driver.snapshot(at: lastNow)) }
    }
}
