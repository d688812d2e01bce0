import Foundation
import Testing

/// `tiltserial demo --firmware FILE`: the file reaches tiltsim, which runs an
/// ELF or the Intel HEX the Arduino IDE exports.
@Suite struct DemoFirmwareTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func demoRunsOurFirmwareFromItsHexFile() throws {
        let hex = Self.root + "/Hardware/build/tiltserial.hex"
        try #require(FileManager.default.fileExists(atPath: hex), "Hardware/build/tiltserial.hex is missing: build it with make -C Hardware (make test does)")
        let run = runTiltserial(["demo", "--firmware", hex, "--scenario", "pull", "--speed", "3"], seconds: 120)
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains("demo: 1 ribbon pull fired"), "\(run.err)")
    }

    /// tiltsim names the file on its own stderr (the terminal's); the demo fails with it.
    @Test func aMissingFirmwareStopsTheDemo() {
        let run = runTiltserial(["demo", "--firmware", "/nonexistent/sketch.elf", "--scenario", "rest"], seconds: 60)
        #expect(run.code != 0 && run.code != nil)
        #expect(run.err.contains("tiltsim"), "\(run.err)")
        #expect(!run.err.contains("ribbon pull fired"))
    }
}
