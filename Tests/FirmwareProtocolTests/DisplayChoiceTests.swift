import FirmwareCore
import Testing
import WireProtocol

/// The display choice in the firmware's C: the EEPROM record (tilt_settings.c)
/// and what tilt_board does with DISPLAY frames.
@Suite struct DisplayChoiceTests {
    static func record(_ kind: UInt8) -> [UInt8] {
        var record = [UInt8](repeating: 0, count: Int(TILT_SETTINGS_SIZE))
        tilt_settings_encode(kind, &record)
        return record
    }

    static func decoded(_ record: [UInt8]) -> UInt8? {
        var kind: UInt8 = 0xEE
        return tilt_settings_decode(record, &kind) ? kind : nil
    }

    @Test func everyKnownKindComesBackAndAnErasedRecordMeansDetect() {
        for kind in [TILT_DISPLAY_SSD1306_128X64, TILT_DISPLAY_SH1106_128X64, TILT_DISPLAY_SSD1306_128X32] {
            #expect(Self.decoded(Self.record(UInt8(kind))) == UInt8(kind))
        }
        var erased = [UInt8](repeating: 0, count: Int(TILT_SETTINGS_SIZE))
        tilt_settings_erased(&erased)
        #expect(erased == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.decoded(erased) == nil)
        #expect(Self.decoded([0, 0, 0, 0]) == nil)
    }

    /// A record damaged anywhere by one flipped bit is not taken for a choice.
    @Test func anyFlippedBitMakesTheRecordCountAsAbsent() {
        for kind: UInt8 in 0...2 {
            for byte in 0..<Int(TILT_SETTINGS_SIZE) {
                for bit in 0..<8 {
                    var record = Self.record(kind)
                    record[byte] ^= UInt8(1 << bit)
                    #expect(Self.decoded(record) == nil, "kind \(kind), byte \(byte), bit \(bit)")
                }
            }
        }
    }

    /// A kind this firmware does not know, or another layout, is not used even with a right checksum.
    @Test func unknownKindsAndOtherLayoutsAreNotUsed() {
        #expect(Self.decoded(Self.record(3)) == nil)
        var other = Self.record(1)
        other[1] = 2
        other[3] = UInt8(truncatingIfNeeded: tilt_crc16(other, 3))
        #expect(Self.decoded(other) == nil)
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
        for bad in [DisplayFrame(operation: 4, kind: 0), DisplayFrame(.tryKind, kind: 3), DisplayFrame(.store, kind: 0xFF)] {
            #expect(Self.handle(&board, bad) == TILT_BOARD_SEND_PARTS, "\(bad)")
            #expect(board.pattern && !board.redraw && board.display.kind == 1, "\(bad) changed nothing")
        }
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
