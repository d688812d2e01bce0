import BoardEmulator
import TiltDisplay

/// One running board of either engine, as far as the command drives it.
protocol SimulatedBoard: AnyObject {
    var serialPath: String? { get }
    /// What the board's display shows now.
    var displayedFrame: Frame { get }
    /// One line for the screen view: board time, samples, engine.
    var statusLine: String { get }
    /// Board seconds per wall second since start.
    func speedReport() -> AVRSpeedReport
    func start()
    func stop()
}

extension NativeBoard: SimulatedBoard {
    var displayedFrame: Frame { screen }
    var statusLine: String {
        let s = currentStatus
        return String(format: "native  %.1f s  %d Hz  %llu samples  %llu OFFSETS", Double(s.boardMicros) / 1e6,
                      s.sampleRateHz, s.samplesSent, s.offsetsReceived)
    }
}

extension AVRBoard: SimulatedBoard {
    var displayedFrame: Frame {
        let display = self.displayFrame
        guard display.isOn, let frame = Frame(bytes: display.vram) else { return Frame() }
        return frame
    }
    var statusLine: String {
        let s = currentStatus
        return String(format: "avr  %.1f s simulated  %llu sensor samples  %llu bytes out", Double(s.simulatedMicros) / 1e6,
                      s.sensorSamples, s.bytesFromAVR)
    }
}
