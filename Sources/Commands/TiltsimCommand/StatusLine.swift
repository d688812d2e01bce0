import BoardEmulator
import Foundation

/// The one status line under `--screen`.
func statusLine(_ board: any EmulatedBoard) -> String {
    if let native = board as? NativeBoard {
        let s = native.currentStatus
        if s.state == .waitingForHost { return "native  off until a host opens \(s.serialPath ?? "the port")" }
        return String(format: "native  %.1f s  %d Hz  %llu samples  %llu OFFSETS", Double(s.boardMicros) / 1e6,
                      s.sampleRateHz, s.samplesSent, s.offsetsReceived)
    }
    if let avr = board as? AVRBoard {
        let s = avr.currentStatus
        if s.state == .waitingForHost { return "avr  held in reset until a host opens \(s.serialPath ?? "the port")" }
        return String(format: "avr  %.1f s simulated  %llu sensor samples  %llu bytes out  contrast 0x%02X (grey %d)",
                      Double(s.simulatedMicros) / 1e6, s.sensorSamples, s.bytesFromAVR,
                      Int(s.display.registers.contrast), Int(avr.displayedBrightness))
    }
    return ""
}
