#if canImport(Glibc)
import Glibc
#endif
import SerialIO
import TiltPipeline

/// What a byte on the run's wake-up pipe asks for. `WakeUpPipe.wake()`, Ctrl-C
/// and SIGTERM write 1 (stop); the live view writes the others (its keys, SIGWINCH).
enum WakeRequest: UInt8 {
    case stop = 1
    /// Redraw the view now (the terminal was resized or the run continued after Ctrl-Z).
    case redraw = 2
    /// Make the current pose the rest pose (the view's `c`).
    case recalibrate = 3
}

extension HostRunner {
    /// The wake-up pipe woke the loop: read what it asks for. A stop stays
    /// pending in the pipe (as `WakeUpPipe` promises) after the driver heard it;
    /// any byte that is not a view request counts as a stop.
    func wokenUp(_ driver: inout HostDriver, _ pipe: WakeUpPipe) {
        var stop = false
        var redraw = false  // once, however many requests asked
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var sawAny = false
        while true {
            let n = withUnsafeMutableBytes(of: &bytes) { read(pipe.readEnd.rawValue, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            sawAny = true
            withUnsafeBytes(of: &bytes) { raw in
                for byte in raw.prefix(n) {
                    switch WakeRequest(rawValue: byte) {
                    case .redraw?:
                        redraw = true
                    case .recalibrate?:
                        recorder?.append(UnsafeRawBufferPointer(start: nil, count: 0), .recalibrated, at: tick())
                        if let outcome = driver.recalibrate(at: lastNow) { output.recalibrated(outcome) }
                        redraw = true
                    case .stop?, nil:
                        stop = true
                    }
                }
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
