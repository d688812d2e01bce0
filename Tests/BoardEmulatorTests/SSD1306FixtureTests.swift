import Foundation
import Testing
import TiltDisplay
@testable import BoardEmulator

/// Our SSD1306 model (CBoardParts/cbp_ssd1306.c) and the glass, driven by
/// fixture sketches in simavr: U8x8's tile placement and the registers that
/// change the picture, checked at points of board time.
@Suite(.serialized) struct SSD1306FixtureTests {
    /// u8x8_tiles.ino's tile byte.
    static func tileByte(_ t: Int, _ ty: Int, _ k: Int) -> UInt8 { UInt8(truncatingIfNeeded: t * 29 + ty * 7 + k * 3 + 1) }

    @Test(arguments: [0x3C, 0x3D] as [UInt8])
    func pageModeAtPowerOnAndU8x8TilesInHorizontalMode(address: UInt8) throws {
        let (board, client) = try ArduinoFixtures.start("u8x8_tiles") { $0.displayAddress = address }
        defer { board.stop() }
        #expect(client.fields("P") == ["P"])
        #expect(client.fields("T") == ["T"])
        var expected = [UInt8](repeating: 0, count: 1024)
        // Page addressing (the reset default): column 126 of page 3, wrapping to column 0 of page 3.
        for (column, byte) in [(126, 0x11), (127, 0x22), (0, 0x33), (1, 0x44)] as [(Int, UInt8)] { expected[3 * 128 + column] = byte }
        // Tiles placed with column/page commands in horizontal addressing; the
        // last run crosses column 127 into page 7.
        for (tx, ty, count) in [(0, 0, 1), (3, 2, 1), (7, 4, 1), (10, 5, 2), (15, 6, 2)] {
            for i in 0..<count * 8 {
                let position = ty * 128 + tx * 8 + i
                expected[position] = Self.tileByte(tx + i / 8, ty, i % 8)
            }
        }
        let status = board.waitFor(timeout: .seconds(30)) { $0.display.vram == expected }
        let display = try #require(status?.display, "GDDRAM: \(board.displayFrame.vram.enumerated().filter { $0.element != expected[$0.offset] }.prefix(8))")
        #expect(display.registers.addressingMode == 0)
        #expect(display.glass.bytes == expected, "U8g2's set-up (0xA1, 0xC8) shows GDDRAM upright")
        #expect(board.displayedScreen.bytes == expected)
        #expect(display.brightness == SSD1306Glass.brightness(contrast: 0xCF))
    }

    /// scroll_invert.ino's pattern as GDDRAM.
    static let pattern: [UInt8] = (0..<1024).map { i in
        let p = i / 128, c = i % 128
        return UInt8(truncatingIfNeeded: c * 37 + p * 101 + ((c * c) >> 2))
    }

    static func bit(_ ram: [UInt8], _ x: Int, _ y: Int) -> Bool { ram[(y >> 3) * 128 + x] >> UInt8(y & 7) & 1 != 0 }

    static func screen(_ pixel: (Int, Int) -> Bool) -> Screen {
        var bytes = [UInt8](repeating: 0, count: 1024)
        for y in 0..<64 { for x in 0..<128 where pixel(x, y) { bytes[(y >> 3) * 128 + x] |= 1 << UInt8(y & 7) } }
        return Screen(bytes: bytes)!
    }

    /// The pattern with pages `pages` rotated right by `steps` columns.
    static func rotated(_ steps: Int, pages: ClosedRange<Int>) -> [UInt8] {
        var ram = pattern
        for p in pages { for c in 0..<128 { ram[p * 128 + c] = pattern[p * 128 + ((c - steps) % 128 + 128) % 128] } }
        return ram
    }

    /// One display frame with 0xD5 0x80, 0xD9 0xF1, 64 rows: 16 MHz · 1 · (1 + 15 + 50) · 64 / 370 kHz.
    static let frameCycles: UInt64 = 16_000_000 * 66 * 64 / 370_000
    static let stepMicros = Double(frameCycles * 5) / 16

    /// Phase starts of scroll_invert.ino (board ms) and where each is looked at (µs after it).
    static let phases: [(letter: String, ms: UInt64, looks: [UInt64])] = [
        ("A", 300, [200_000]), ("B", 700, [200_000]), ("C", 1100, [200_000]), ("D", 1500, [300_000, 1_000_000]),
        ("E", 2700, [300_000, 1_000_000]), ("F", 3900, [200_000]), ("G", 4300, [200_000]), ("H", 4700, [200_000]),
        ("I", 5100, [200_000]),
    ]
    static let captureTimes = phases.flatMap { p in p.looks.map { p.ms * 1000 + $0 } }

    @Test func invertOffsetScrollEntireOnOffRemapsAndMultiplexOnBoardTime() throws {
        let (board, client) = try ArduinoFixtures.start("scroll_invert", captures: Self.captureTimes)
        defer { board.stop() }
        var started: [String: UInt64] = [:]
        while let line = client.sketchLine(), !line.hasPrefix("Z") {
            let f = line.split(separator: " ")
            if f.count == 2, let micros = UInt64(f[1]) { started[String(f[0])] = micros }
        }
        for (letter, ms, _) in Self.phases {
            let t = try #require(started[letter], "phase \(letter) printed")
            #expect(t >= ms * 1000 && t < ms * 1000 + 60_000, "phase \(letter) at \(t) µs")
        }

        var d = try board.display(at: 500_000)
        #expect(d.glass.bytes == Self.pattern, "A: set-up and pattern, upright")
        #expect(d.registers.frameCycles == Self.frameCycles)

        d = try board.display(at: 900_000)
        #expect(d.glass == Self.screen { !Self.bit(Self.pattern, $0, $1) }, "B: 0xA7 inverts")
        #expect(d.brightness == SSD1306Glass.brightness(contrast: 0x10) && d.brightness < SSD1306Glass.brightness(contrast: 0xCF))

        d = try board.display(at: 1_300_000)
        #expect(d.glass == Self.screen { Self.bit(Self.pattern, $0, ($1 + 12) % 64) }, "C: offset 4 + start line 8")
        #expect(d.vram == Self.pattern, "GDDRAM itself is untouched")

        // Right scroll of pages 0-1, a step every 5 frames: pixels move with board time.
        let dStart = try #require(started["D"])
        var lastSteps = -1
        for at in [1_800_000, 2_500_000] as [UInt64] {
            let display = try board.display(at: at)
            let steps = Int(display.registers.scrollSteps)
            let elapsed = Double(at - dStart)
            #expect(abs(Double(steps) - elapsed / Self.stepMicros) < 1.5, "D: \(steps) steps after \(elapsed) µs")
            #expect(steps > lastSteps)
            lastSteps = steps
            #expect(display.vram == Self.rotated(steps, pages: 0...1), "D: pages 0-1 rotated right by \(steps)")
            #expect(display.glass.bytes == display.vram)
        }

        // Diagonal scroll: every page right, and the picture up one row per step.
        let eStart = try #require(started["E"])
        for at in [3_000_000, 3_700_000] as [UInt64] {
            let display = try board.display(at: at)
            let registers = display.registers
            let steps = Int(registers.scrollSteps)
            let elapsed = Double(at - eStart)
            #expect(abs(Double(steps) - elapsed / Self.stepMicros) < 1.5, "E: \(steps) steps after \(elapsed) µs")
            #expect(Int(registers.verticalScrollOffset) == steps % 64)
            let ram = Self.rotated(steps, pages: 0...7)
            #expect(display.vram == ram)
            #expect(display.glass == Self.screen { Self.bit(ram, $0, ($1 + steps) % 64) }, "E: moved up \(steps) rows")
        }

        d = try board.display(at: 4_100_000)
        #expect(d.glass == Self.screen { _, _ in true }, "F: 0xA5 lights everything")
        #expect(!d.registers.scrollActive && d.vram == Self.pattern)

        d = try board.display(at: 4_500_000)
        #expect(d.glass == Screen() && !d.isOn && d.brightness == 0, "G: 0xAE: dark")

        d = try board.display(at: 4_900_000)
        #expect(d.glass == Self.screen { Self.bit(Self.pattern, 127 - $0, 63 - $1) }, "H: 0xA0 + 0xC0: rotated half a turn")

        d = try board.display(at: 5_300_000)
        #expect(d.glass == Self.screen { x, y in y >= 32 && Self.bit(Self.pattern, x, y - 32) }, "I: 32 rows driven")
    }

    /// Two runs of the same sketch: the same serial bytes (board timestamps
    /// included) and the same display at every captured instant.
    @Test func twoRunsGiveIdenticalBytesAndScreens() throws {
        let times = Self.captureTimes + stride(from: 1_550_000, to: 3_900_000, by: 50_000).map { UInt64($0) }
        func run() throws -> (serial: [String], displays: [AVRDisplayFrame]) {
            let (board, client) = try ArduinoFixtures.start("scroll_invert", captures: times)
            defer { board.stop() }
            var lines: [String] = []
            while let line = client.sketchLine() {
                lines.append(line)
                if line.hasPrefix("Z") { break }
            }
            return (lines, try times.map { try board.display(at: $0) })
        }
        let first = try run(), second = try run()
        #expect(first.serial.count == 10 && first.serial == second.serial, "\(first.serial) vs \(second.serial)")
        #expect(first.displays == second.displays)
        #expect(Set(first.displays.map(\.glass)).count > 20, "the screens differ from instant to instant while scrolling")
    }
}
