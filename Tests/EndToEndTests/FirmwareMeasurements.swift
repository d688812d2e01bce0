import Foundation
import Testing
import WireProtocol
@testable import BoardEmulator

/// Figures for docs/perf/render.md, not checks: board time from an OFFSETS
/// frame reaching the UART to the whole new frame in the SSD1306's memory.
/// `AVR_MEASURE=1 swift test --filter FirmwareMeasurements`
@Suite(.enabled(if: ProcessInfo.processInfo.environment["AVR_MEASURE"] == "1"))
struct FirmwareMeasurements {
    /// At the default 100 Hz, and at 1 kHz, where the display gets only the
    /// bus time the sensor's samples leave.
    @Test(arguments: [100, 1000] as [UInt16]) func offsetsToFrameOnScreen(sampleRateHz: UInt16) throws {
        // Paced at a tenth of real time, so every 1 ms batch is seen (±1 ms resolution).
        let (board, client) = try Firmware.streaming(at: sampleRateHz, pace: .speed(0.1))
        defer { board.stop() }
        let views: [(UInt16, UInt16, UInt16, UInt16)] = [(0, 0, 0, 0), (3, 5, 60, 30), (222, 111, 250, 150), (384, 192, 500, 250)]
        for (i, view) in views.enumerated() {
            let offsets = OffsetsFrame(sequence: UInt8(i), viewportX: view.0, viewportY: view.1, ribbonX: view.2, ribbonBottom: view.3, flags: [])
            let wire = offsets.encoded()
            let fed = board.currentStatus.bytesToAVR + UInt64(wire.count)
            try client.send(wire)
            let arrived = try #require(board.waitFor(timeout: .seconds(10)) { $0.bytesToAVR >= fed }).simulatedMicros
            let expected = rendered(view)
            let shown = try #require(board.waitFor(timeout: .seconds(20)) { $0.screen == expected }).simulatedMicros
            print("\(sampleRateHz) Hz: OFFSETS \(view) → frame on screen: \(Double(shown - arrived) / 1000) ms board time")
        }
    }

    /// New frames on the glass per simulated second at 100 Hz with a new view
    /// every 16 ms (a host's pace while the board moves), and how busy the bus
    /// was: docs/perf/render.md, "A host's pace".
    @Test(arguments: [EmulatedDisplay.ssd1306, .sh1106])
    func framesPerSecondAtAHostsPace(display: EmulatedDisplay) throws {
        let run = try EndToEndFramePipelineTests.distinctFramesPerSecond(sampleRateHz: 100, everyMicros: 16_000, display: display)
        print("\(display.name), a new view every 16 ms: \(run.frames) distinct whole frames in one simulated second")
    }
}
