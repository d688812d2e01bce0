@testable import BoardEmulator
import Foundation
import TestSupport
import Testing
import TiltCore
import TiltDisplay
import WireProtocol

/// Our firmware on a board whose display is a 1.3" SH1106 module (the part
/// model's SH1106 kind): it tells the controller apart at start-up by reading
/// its RAM back, starts every page at RAM column 2, and so shows the same
/// 128x64 picture as on the SSD1306, on the glass, pixel for pixel; DESCRIBE
/// gets PARTS with display kind 1.
@Suite(.serialized) struct EndToEndSH1106Tests {
    /// The sensor's WHO_AM_I, the display's address, and line 7 of the waiting
    /// screen (the sensor part named unless the usual one, then the SH1106).
    @Test(arguments: [(0x68, 0x3C, "SH1106"), (0x70, 0x3D, "MPU6500 AT 68 SH1106")] as [(UInt8, UInt8, String)])
    func ourFirmwareDrawsTheSamePictureOnAnSH1106(whoAmI: UInt8, address: UInt8, partsLine: String) throws {
        let waiting = statusScreen([1: "TILTSERIAL 1.0.0", 3: "WAITING FOR HOST", 5: "115200 BAUD", 7: partsLine])
        // Real time: the OFFSETS views are caught inside the firmware's 1 s host timeout.
        let (board, client) = try EndToEndFirmwareTests.connected(whoAmI: whoAmI, display: address, displayPart: .sh1106,
                                                                  pace: .realTime)
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 5 })
        #expect(client.hellos.first?.status == 3, "sensor and display answered")
        #expect(board.waitFor(timeout: .seconds(10)) { $0.display.glass == waiting } != nil,
                "the waiting screen on the glass, centred")
        try client.send(DescribeFrame())
        #expect(try client.read { $0.parts.count == 1 })
        #expect(client.parts.first == PartsFrame(sensorAddress: 0x68, sensorWhoAmI: whoAmI, displayAddress: address, displayKind: 1))
        #expect(client.parts.first?.summary.hasSuffix("display SH1106 128x64 at 0x\(String(address, radix: 16, uppercase: true))") == true)

        let views: [(UInt16, UInt16, UInt16, UInt16)] = [(0, 0, 0, 0), (130, 77, 200, 120), (17, 250, 20, 255)]
        for (i, view) in views.enumerated() {
            try client.send(OffsetsFrame(sequence: UInt8(i), viewportX: view.0, viewportY: view.1, ribbonX: view.2, ribbonBottom: view.3, flags: []))
            let expected = rendered(view)
            var drawn = false
            try client.read { _ in drawn = board.currentStatus.display.glass == expected; return drawn }
            #expect(drawn, "glass = renderer for \(view)")
        }
        #expect(EndToEndFirmwareTests.sequenceIssues(client.frames).isEmpty)
        #expect(board.currentStatus.display.registers.isLit, "DC-DC on, display on")
    }

    /// Without a sensor the NO SENSOR screen still names the SH1106.
    @Test func theNoSensorScreenNamesTheSH1106() throws {
        let (board, client) = try EndToEndFirmwareTests.connected(sensor: nil, displayPart: .sh1106)
        defer { board.stop() }
        #expect(try client.read { $0.hellos.count >= 1 })
        #expect(client.hellos.first?.status == 2, "only the display answered")
        let screen = statusScreen([1: "TILTSERIAL 1.0.0", 3: "NO SENSOR", 5: "CHECK SDA A4 SCL A5", 7: "SH1106"])
        #expect(board.waitFor(timeout: .seconds(10)) { $0.display.glass == screen } != nil)
    }

    /// The same firmware keeps saying SSD1306 on an SSD1306: the read-back
    /// probe does not mistake its status byte for RAM.
    @Test func anSSD1306IsStillAnSSD1306() throws {
        let (board, client) = try EndToEndFirmwareTests.connected()
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 5 })
        #expect(board.waitFor(timeout: .seconds(10)) { $0.display.glass == waitingScreen } != nil)
        try client.send(DescribeFrame())
        #expect(try client.read { $0.parts.count == 1 })
        #expect(client.parts.first?.displayKind == 0)
    }
}

/// A 0.91" 128x32 module (the part model's 128x32 kind: an SSD1306 on 32
/// lines). It cannot be detected: our firmware drives it with the 128x64
/// set-up, which squeezes the whole picture 2:1 onto its 32 lines (every
/// other row: docs/display.md), whether it detected an SSD1306 or was built
/// to begin it as a 128x32 (`make -C Hardware DISPLAY_KIND=2`, which then says
/// display kind 2 in PARTS).
@Suite(.serialized) struct EndToEnd128x32Tests {
    /// The firmware built with DISPLAY_KIND=2 (the Makefile's `firmware` target builds it).
    static func forcedFirmware() throws -> String {
        let relative = "Hardware/build/display-kind-2/tiltserial.elf"
        guard FileManager.default.fileExists(atPath: Firmware.root + "/" + relative) else {
            throw E2EFailure("\(relative) is missing: build it with make -C Hardware DISPLAY_KIND=2 (make test does)")
        }
        return Firmware.root + "/" + relative
    }

    /// The glass of a 128x32 module showing `screen` squeezed: glass row y is its row 2y + 1; no glass below row 31.
    static func squeezed(_ screen: Screen) -> Screen {
        var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
        for y in 0..<32 { for x in 0..<128 where screen[x, 2 * y + 1] { bytes[(y >> 3) * 128 + x] |= 1 << UInt8(y & 7) } }
        return Screen(bytes: bytes)!
    }

    /// The status text on a module the firmware knows is 128x32: each text
    /// line of the 128x64 screen (pages 1, 3, 5, 7) drawn twice as tall, so
    /// the glass shows it whole, the four lines one under the other.
    static func stacked(_ screen: Screen) -> Screen {
        var bytes = [UInt8](repeating: 0, count: Screen.byteCount)
        for k in 0..<4 { bytes.replaceSubrange(k * 128..<(k + 1) * 128, with: screen.bytes[(2 * k + 1) * 128..<(2 * k + 2) * 128]) }
        return Screen(bytes: bytes)!
    }

    @Test(arguments: [false, true])
    func theWholePictureSqueezedOntoThirtyTwoLines(forced: Bool) throws {
        var configuration = AVRBoard.Configuration(firmwarePath: try forced ? Self.forcedFirmware() : Firmware.path(), pace: .realTime)
        configuration.display = .ssd1306_128x32
        let board = try AVRBoard(configuration)
        let client = try PtyPeer(opening: try #require(board.serialPath))
        board.start()
        defer { board.stop() }
        #expect(try client.read { $0.samples.count >= 5 })
        // Detected, it is taken for a 128x64 SSD1306 and its text squeezed
        // (every other glyph row); known (forced), its text is drawn tall and reads.
        let waiting = forced ? Self.stacked(waitingScreen) : Self.squeezed(waitingScreen)
        #expect(board.waitFor(timeout: .seconds(10)) { $0.display.glass == waiting } != nil)
        try client.send(DescribeFrame())
        #expect(try client.read { $0.parts.count == 1 })
        #expect(client.parts.first?.displayKind == (forced ? 2 : 0), "forced: kind 2; detected: an SSD1306")
        for (i, view) in [(0, 0, 0, 0), (130, 77, 200, 120)].enumerated() as EnumeratedSequence<[(UInt16, UInt16, UInt16, UInt16)]> {
            try client.send(OffsetsFrame(sequence: UInt8(i), viewportX: view.0, viewportY: view.1, ribbonX: view.2, ribbonBottom: view.3, flags: []))
            let expected = Self.squeezed(rendered(view))
            var drawn = false
            try client.read { _ in drawn = board.currentStatus.display.glass == expected; return drawn }
            #expect(drawn, "glass = every other row of the renderer's \(view)")
        }
        #expect(board.currentStatus.display.registers.contrast == (forced ? 0xFF : 0xCF))
    }
}
