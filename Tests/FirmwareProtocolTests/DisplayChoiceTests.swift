import FirmwareCore
import Testing
import WireProtocol

/// The display choice in the firmware's C: the EEPROM record (tilt_settings.c)
/// and what tilt_board does with DISPLAY frames.
@Suite struct DisplayChoiceTests {
    static let none = UInt8(TILT_SETTINGS_NO_KIND)

    static func record(kind: UInt8 = none, clock: UInt8 = 0) -> [UInt8] {
        var record = [UInt8](repeating: 0, count: Int(TILT_SETTINGS_SIZE))
        var settings = tilt_settings(kind: kind, clock: clock)
        tilt_settings_encode(&settings, &record)
        return record
    }

    /// The stored kind (nil: detect) and clock.
    static func decoded(_ record: [UInt8]) -> (kind: UInt8?, clock: UInt8) {
        let settings = tilt_settings_decode(record)
        return (settings.kind == none ? nil : settings.kind, settings.clock)
    }

    static func crcLow(_ bytes: [UInt8]) -> UInt8 { UInt8(truncatingIfNeeded: tilt_crc16(bytes, Int(bytes.count))) }

    @Test func everyKnownKindAndClockComesBackAndAnErasedRecordMeansDetectAt400Kilohertz() {
        for kind in [Self.none, 0, 1, 2] {
            for clock: UInt8 in 0...3 {
                let decoded = Self.decoded(Self.record(kind: kind, clock: clock))
                #expect(decoded.kind == (kind == Self.none ? nil : kind) && decoded.clock == clock, "kind \(kind), clock \(clock)")
            }
        }
        // Layout 2 as docs/protocol.md gives it: magic 'T', 2, kind, clock, the CRC's low byte.
        #expect(Self.record(kind: 1, clock: 2) == [0x54, 2, 1, 2, Self.crcLow([0x54, 2, 1, 2])])
        // Nothing stored writes the erased record, so `setup --display auto` leaves the EEPROM as it came.
        #expect(Self.record() == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        var erased = [UInt8](repeating: 0, count: Int(TILT_SETTINGS_SIZE))
        tilt_settings_erased(&erased)
        #expect(erased == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.decoded(erased) == (nil, 0))
        #expect(Self.decoded([0, 0, 0, 0, 0]) == (nil, 0))
    }

    /// A board set up by the first firmware with `setup` holds layout 1
    /// (magic, 1, kind, the CRC of three; the fifth byte still erased): its
    /// kind stays chosen, at 400 kHz.
    @Test func aLayoutOneRecordKeepsItsKind() {
        for kind: UInt8 in 0...2 {
            let old = [0x54, 1, kind, Self.crcLow([0x54, 1, kind]), 0xFF]
            #expect(Self.decoded(old) == (kind, 0), "kind \(kind)")
        }
    }

    /// A record damaged anywhere by one flipped bit is not taken for a choice.
    @Test func anyFlippedBitMakesTheRecordCountAsAbsent() {
        for (kind, clock) in [(UInt8(0), UInt8(1)), (1, 0), (2, 2), (Self.none, 1)] {
            for byte in 0..<Int(TILT_SETTINGS_SIZE) {
                for bit in 0..<8 {
                    var record = Self.record(kind: kind, clock: clock)
                    record[byte] ^= UInt8(1 << bit)
                    #expect(Self.decoded(record) == (nil, 0), "kind \(kind), clock \(clock), byte \(byte), bit \(bit)")
                }
            }
        }
    }

    /// A kind or clock this firmware does not know, or another layout, is not used even with a right checksum.
    @Test func unknownKindsClocksAndOtherLayoutsAreNotUsed() {
        #expect(Self.decoded([0x54, 2, 3, 0, Self.crcLow([0x54, 2, 3, 0])]) == (nil, 0))
        #expect(Self.decoded([0x54, 2, 1, 4, Self.crcLow([0x54, 2, 1, 4])]) == (nil, 0))
        #expect(Self.decoded([0x54, 3, 1, 0, Self.crcLow([0x54, 3, 1, 0])]) == (nil, 0))
        #expect(Self.decoded([0x54, 1, 3, Self.crcLow([0x54, 1, 3]), 0xFF]) == (nil, 0))
    }

    /// The Swift side's numbers for DISPLAY and PARTS are the firmware's.
    @Test func swiftAndCAgreeOnTheOperationsClocksAndFlags() {
        #expect(DisplayFrame.Operation.allCases.map { UInt32($0.rawValue) }
                == [TILT_DISPLAY_TRY, TILT_DISPLAY_STORE, TILT_DISPLAY_CLEAR, TILT_DISPLAY_END, TILT_DISPLAY_SET_CLOCK])
        #expect(DisplayClock.allCases.map { UInt32($0.rawValue) }
                == [TILT_DISPLAY_CLOCK_100KHZ, TILT_DISPLAY_CLOCK_400KHZ, TILT_DISPLAY_CLOCK_800KHZ, TILT_DISPLAY_CLOCK_1MHZ])
        #expect(DisplayClock.allCases.map(\.hertz) == DisplayClock.allCases.map(\.hertz).sorted(), "in order of speed")
        #expect(UInt32(PartsFrame.clockFellBackFlag) == TILT_PARTS_CLOCK_FELL_BACK)
        #expect(UInt32(PartsFrame.kindStoredFlag) == TILT_PARTS_KIND_STORED && UInt32(PartsFrame.patternFlag) == TILT_PARTS_PATTERN)
        #expect(UInt32(PartsFrame.clockMask) == TILT_PARTS_CLOCK_MASK && PartsFrame.clockMask >> TILT_PARTS_CLOCK_SHIFT == 3)
    }

    static func handle(_ board: inout tilt_board, _ frame: some WireFrame) -> tilt_board_action {
        let payload = Array(COBSPayload.of(frame).dropLast(2))  // type and body, CRC stripped
        var token: UInt32 = 0
        return payload.withUnsafeBufferPointer { tilt_board_handle(&board, $0.baseAddress, UInt8($0.count), 0, &token) }
    }

    @Test func tryShowsThePatternOffsetsEndItAndBadChoicesChangeNothing() {
        var board = tilt_board()
        tilt_board_init(&board, 100, 0, 0)
        board.redraw = false
        #expect(Self.handle(&board, DisplayFrame(.tryKind, kind: 1)) == TILT_BOARD_DISPLAY)
        #expect(board.pattern && board.redraw && board.display.op == UInt8(TILT_DISPLAY_TRY) && board.display.kind == 1)
        board.redraw = false
        for bad in [DisplayFrame(operation: 5, kind: 0), DisplayFrame(.tryKind, kind: 3), DisplayFrame(.store, kind: 0xFF),
                    DisplayFrame(operation: 4, kind: 4)] {
            #expect(Self.handle(&board, bad) == TILT_BOARD_SEND_PARTS, "\(bad)")
            #expect(board.pattern && !board.redraw && board.display.kind == 1, "\(bad) changed nothing")
        }
        // Set-clock takes 0 (400 kHz), 1 (800 kHz), 2 (1 MHz) or 3 (100 kHz), and ends the pattern.
        #expect(Self.handle(&board, DisplayFrame(setClock: .megahertz1)) == TILT_BOARD_DISPLAY)
        #expect(!board.pattern && board.redraw && board.display.op == UInt8(TILT_DISPLAY_SET_CLOCK) && board.display.kind == 2)
        _ = Self.handle(&board, DisplayFrame(.tryKind, kind: 1))
        // Clear and end need no kind: any byte is fine.
        #expect(Self.handle(&board, DisplayFrame(operation: 2, kind: 0x77)) == TILT_BOARD_DISPLAY)
        #expect(!board.pattern && board.redraw)
        _ = Self.handle(&board, DisplayFrame(.tryKind, kind: 0))
        #expect(board.pattern)
        #expect(Self.handle(&board, OffsetsFrame(sequence: 0, viewportX: 0, viewportY: 0, ribbonX: 0, ribbonBottom: 0, flags: [])) == TILT_BOARD_NOTHING)
        #expect(!board.pattern, "a running host takes the screen back")
    }
}

/// A frame's payload (type, body, CRC) as the receiver sees it.
enum COBSPayload {
    static func of(_ frame: some WireFrame) -> [UInt8] {
        COBS.decode(Array(frame.encoded().dropLast())) ?? []
    }
}
