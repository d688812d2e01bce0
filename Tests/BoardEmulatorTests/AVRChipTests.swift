@testable import BoardEmulator
import Foundation
import Testing

/// `AVRChip`: the vector counts against avr-libc's own headers, and the chip
/// read back from every image the build makes for each board.
@Suite struct AVRChipTests {
    /// avr-libc's device headers, as avr-gcc finds them.
    static let avrInclude = ProcessInfo.processInfo.environment["AVR_INCLUDE"] ?? "/usr/lib/avr/include/avr"

    @Test(arguments: [(AVRChip.atmega328p, "iom328p.h"), (.atmega32u4, "iom32u4.h"), (.atmega2560, "iom2560.h")])
    func vectorCountsAreAvrLibcs(chip: AVRChip, header: String) throws {
        let path = Self.avrInclude + "/" + header
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw AVRTestFailure("\(path) is missing: install avr-libc with scripts/install-deps (make test does)")
        }
        // "#define _VECTORS_SIZE (26 * 4)" or "# define _VECTORS_SIZE 228".
        let regex = try NSRegularExpression(pattern: #"#\s*define\s+_VECTORS_SIZE\s+\(?\s*(\d+)\s*(?:\*\s*(\d+))?"#)
        let match = try #require(regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)))
        let numbers = (1...2).compactMap { Range(match.range(at: $0), in: text).flatMap { Int(text[$0]) } }
        #expect(numbers.reduce(1, *) == chip.vectorCount * 4)
    }

    /// `count` jmps (to 0x0068), then `after`.
    static func image(jumps count: Int, then after: [UInt8] = [0x11, 0x24]) -> [UInt8] {
        Array(repeatElement([0x0C, 0x94, 0x34, 0x00], count: count).joined()) + after
    }

    @Test func theRunOfJumpsNamesTheChip() {
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 26)) == .atmega328p)
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 43)) == .atmega32u4)
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 57)) == .atmega2560)
        // A far jmp (k ≥ 0x10000: bit 0 of the first word set) counts as well.
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 56, then: [0x0D, 0x94, 0x00, 0x00, 0xFF, 0xCF])) == .atmega2560)
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 57).prefix(AVRChip.headBytes)) == .atmega2560)
        // A Mega sketch with indirect calls: the linker's trampolines follow the table.
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 57 + 6)) == .atmega2560)
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 57 + 6).prefix(AVRChip.headBytes)) == .atmega2560)
    }

    @Test func anyOtherStartIsNoChipOfOurs() {
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 35)) == nil, "an ATmega1284's table")
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 25)) == nil)
        #expect(AVRChip.linkedFor(flash: [UInt8]()) == nil)
        // rjmp vectors (an ATmega8's), and a table cut short mid-instruction.
        #expect(AVRChip.linkedFor(flash: Array(repeatElement([0x12, 0xC0], count: 26).joined())) == nil)
        #expect(AVRChip.linkedFor(flash: Self.image(jumps: 25, then: [0x0C, 0x94])) == nil)
        #expect(AVRChip.jumpRun(Self.image(jumps: 26).dropFirst(2)) == 0, "from address 0 only")
    }

    /// Our firmware for every board, and the fixture sketches, as the build makes them.
    @Test func everyBuiltImageNamesItsBoardsChip() throws {
        var images: [(path: String, chip: AVRChip)] = ArduinoBoard.allCases.map { board in
            ("Hardware/build/\(board == .uno ? "" : board.rawValue + "/")tiltserial.hex", board.chip)
        }
        images += [("examples/mega-tilt/build/tilt_bubble.hex", .atmega2560), ("examples/nano-tilt/build/tilt_bubble.hex", .atmega328p),
                   ("\(BuiltFirmware.fixtures)/sketches-leonardo/int_pin/int_pin.hex", .atmega32u4),
                   ("\(BuiltFirmware.fixtures)/sketches/int_pin/int_pin.hex", .atmega328p)]
        for (relative, chip) in images {
            let path = try BuiltFirmware.existing(relative, builtBy: "make -C Hardware check and make fixtures").get()
            let hex = try IntelHex(parsing: Substring(String(contentsOfFile: path, encoding: .utf8)))
            #expect(AVRChip.linkedFor(flash: hex.image) == chip, "\(relative)")
        }
    }
}
