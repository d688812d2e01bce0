import CBoardParts
import Foundation
import Testing
import TiltDisplay
@testable import BoardEmulator

/// The display part model (CBoardParts/cbp_ssd1306.c) as an SH1106, driven
/// message by message on a core that never runs (cbp_bus_master): its
/// 132-column RAM and the 128 columns the glass shows, the SSD1306 commands
/// it does not have, RAM read-back behind the dummy byte, read-modify-write;
/// and the SSD1306's status-only reads, which are how the firmware tells them apart.
@Suite(.serialized) struct SH1106ModelTests {
    /// A display part alone on a bus at 0x3C.
    final class DisplayOnBus {
        let avr: OpaquePointer
        let part: OpaquePointer
        static let address: UInt8 = 0x3C

        init(_ display: EmulatedDisplay) throws {
            let elf = try AVRBoardLifecycleTests.stopping.get()
            var error = [CChar](repeating: 0, count: 256)
            guard let avr = cbp_avr_create(elf, "atmega328p", 16_000_000, &error, error.count) else {
                throw AVRTestFailure(error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            }
            guard let part = cbp_ssd1306_create_kind(avr, Self.address, display.kind) else {
                cbp_avr_destroy(avr)
                throw AVRTestFailure("no part made for \(display)")
            }
            self.avr = avr
            self.part = part
        }

        deinit {
            cbp_ssd1306_destroy(part)
            cbp_avr_destroy(avr)
        }

        /// One transaction: control byte 0x00, then the commands.
        func commands(_ bytes: [UInt8]) { write([0x00] + bytes) }
        /// One transaction: control byte 0x40, then the data.
        func data(_ bytes: [UInt8]) { write([0x40] + bytes) }
        /// A 0x40 control byte, then a read of `count` bytes.
        func readData(_ count: Int) -> [UInt8] {
            write([0x40])
            return read(count)
        }
        /// A 0x00 control byte, then a read of `count` bytes.
        func readCommandSide(_ count: Int) -> [UInt8] {
            write([0x00])
            return read(count)
        }

        private func write(_ bytes: [UInt8]) {
            let acked = cbp_bus_master_write(avr, Self.address, bytes, bytes.count)
            #expect(acked, "the part acknowledges \(bytes.prefix(4))")
        }

        private func read(_ count: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: count)
            let acked = cbp_bus_master_read(avr, Self.address, &out, count)
            #expect(acked)
            return out
        }

        /// The controller's own RAM byte (nil outside it).
        func ram(page: Int, column: Int) -> UInt8? {
            let value = cbp_ssd1306_ram_byte(part, UInt8(page), UInt8(column))
            return value < 0 ? nil : UInt8(value)
        }

        var state: cbp_ssd1306_state {
            var s = cbp_ssd1306_state()
            cbp_ssd1306_peek(part, &s)
            return s
        }

        var frame: AVRDisplayFrame {
            var reader = SSD1306Reader()
            return reader.frame(part)!
        }
    }

    /// A byte for every RAM cell, unlike its neighbours and never 0.
    static func pattern(_ page: Int, _ column: Int) -> UInt8 { UInt8(truncatingIfNeeded: page * 67 + column * 5 + 1) | 0x01 }

    static func fillAllColumns(_ display: DisplayOnBus) {
        for page in 0..<8 {
            display.commands([0xB0 | UInt8(page), 0x00, 0x10])
            display.data((0..<132).map { pattern(page, $0) })
        }
    }

    @Test func itsRAMHas132ColumnsAndTheGlassShowsColumns2To129() throws {
        let display = try DisplayOnBus(.sh1106)
        #expect(display.state.kind == 1)
        Self.fillAllColumns(display)
        for page in 0..<8 {
            #expect((0..<132).map { display.ram(page: page, column: $0) } == (0..<132).map { Self.pattern(page, $0) })
        }
        #expect(display.ram(page: 0, column: 132) == nil)
        // On (the DC-DC converter is on from reset, 0xAD 0x8B), in the usual
        // module set-up (0xA1, 0xC8), which the glass model shows upright.
        display.commands([0xAF, 0xA1, 0xC8])
        let upright = display.frame.glass
        for y in 0..<64 {
            for x in 0..<128 {
                let lit = Self.pattern(y / 8, x + 2) >> UInt8(y % 8) & 1 != 0
                if upright[x, y] != lit { Issue.record("glass (\(x), \(y)) shows column \(x + 2)"); return }
            }
        }
        // Without the column remap the picture is mirrored: SEG2...SEG129 are
        // still columns 2...129, the other way round.
        display.commands([0xA0])
        let mirrored = display.frame.glass
        for y in 0..<64 {
            for x in 0..<128 {
                let lit = Self.pattern(y / 8, 129 - x) >> UInt8(y % 8) & 1 != 0
                if mirrored[x, y] != lit { Issue.record("mirrored glass (\(x), \(y)) shows column \(129 - x)"); return }
            }
        }
    }

    @Test func theSSD1306sAddressingCommandsAreNotItsOwn() throws {
        let display = try DisplayOnBus(.sh1106)
        // Horizontal addressing and a column range on an SSD1306; here 0x20
        // and 0x21 are no-ops and their parameters read as commands: 0x00 sets
        // the column's low nibble, 0x7F the start line to 63.
        display.commands([0x20, 0x00, 0x21, 0x00, 0x7F])
        #expect(display.state.addressing_mode == 2)
        #expect(display.state.start_line == 63)
        // Page addressing only: a run past column 131 does not reach page 4.
        display.commands([0xB3, 0x02, 0x10])
        display.data([UInt8](repeating: 0xFF, count: 140))
        #expect((0..<132).map { display.ram(page: 3, column: $0) } == [0, 0] + [UInt8](repeating: 0xFF, count: 130))
        #expect((0..<132).allSatisfy { display.ram(page: 4, column: $0) == 0 })
        // The same on an SSD1306: horizontal addressing wraps into page 4.
        let ssd1306 = try DisplayOnBus(.ssd1306)
        ssd1306.commands([0x20, 0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07])
        ssd1306.commands([0xB3, 0x02, 0x10])
        ssd1306.data([UInt8](repeating: 0xFF, count: 140))
        #expect(ssd1306.state.start_line == 0)
        #expect(ssd1306.ram(page: 4, column: 0) == 0xFF)
        #expect(ssd1306.ram(page: 0, column: 128) == nil)
    }

    @Test func readsReturnRAMBehindOneDummyByteAndMoveTheCursor() throws {
        let display = try DisplayOnBus(.sh1106)
        Self.fillAllColumns(display)
        display.commands([0xB5, 0x00, 0x10])
        let first = display.readData(4)
        #expect(Array(first.dropFirst()) == [0, 1, 2].map { Self.pattern(5, $0) }, "the first byte is the dummy read")
        // Reading on goes on where it stopped.
        #expect(display.readData(2) == [3, 4].map { Self.pattern(5, $0) })
        // The last columns, past the glass.
        display.commands([0xB5, 0x02, 0x18])  // column 0x82 = 130
        #expect(Array(display.readData(3).dropFirst()) == [130, 131].map { Self.pattern(5, $0) })
        // After a 0x00 control byte a read is the status byte: display off (bit 6), then on.
        #expect(display.readCommandSide(2) == [0x40, 0x40])
        display.commands([0xAF])
        #expect(display.readCommandSide(1) == [0x00])
    }

    @Test func readModifyWriteReadsInPlaceAndPutsTheCursorBack() throws {
        let display = try DisplayOnBus(.sh1106)
        Self.fillAllColumns(display)
        display.commands([0xB6, 0x0E, 0x11])  // column 0x1E = 30
        display.commands([0xE0])
        // Reads leave the cursor where it is.
        #expect(Array(display.readData(3).dropFirst()) == [Self.pattern(6, 30), Self.pattern(6, 30)])
        // Writes move it on; 0xEE puts it back at 30.
        display.data([0x5A, 0x6B])
        display.commands([0xEE])
        #expect(Array(display.readData(3).dropFirst()) == [0x5A, 0x6B], "written, then read back from where 0xE0 was given")
        #expect(display.ram(page: 6, column: 32) == Self.pattern(6, 32))
        // Out of read-modify-write, 0xEE alone moves nothing.
        display.commands([0xB6, 0x04, 0x10])
        display.commands([0xEE])
        display.data([0x01])
        #expect(display.ram(page: 6, column: 4) == 0x01)
    }

    @Test func anSSD1306AnswersEveryReadWithItsStatusByte() throws {
        let display = try DisplayOnBus(.ssd1306)
        display.commands([0xB0, 0x00, 0x10])
        display.data([0xA5, 0x5A])
        display.commands([0xB0, 0x00, 0x10])
        // Datasheet 8.1.5: in I2C mode only the status register reads back (bit 6: display off).
        #expect(display.readData(3) == [0x40, 0x40, 0x40])
        display.commands([0xAF])
        #expect(display.readData(3) == [0x00, 0x00, 0x00])
        #expect(display.ram(page: 0, column: 0) == 0xA5)
    }

    /// The 128x32 module's part is an SSD1306 on the bus; its frame says the panel has 32 lines.
    @Test func a128x32ModuleIsAnSSD1306WithAShortPanel() throws {
        let display = try DisplayOnBus(.ssd1306_128x32)
        #expect(display.state.kind == 2)
        display.commands([0xAF])
        #expect(display.readData(2) == [0x00, 0x00], "status reads, as an SSD1306")
        #expect(display.ram(page: 0, column: 128) == nil, "128 columns")
        #expect(display.frame.registers.panelRows == 32)
        #expect(try DisplayOnBus(.ssd1306).frame.registers.panelRows == 64)
    }

    @Test func powerOnClearsTheRAMAndKeepsTheKind() throws {
        let display = try DisplayOnBus(.sh1106)
        Self.fillAllColumns(display)
        display.commands([0xE0, 0xAD, 0x8A])
        #expect(display.state.charge_pump == 0)
        cbp_ssd1306_power_on(display.part)
        #expect(display.state.kind == 1)
        #expect(display.state.charge_pump == 1, "DC-DC on at reset (0xAD 0x8B)")
        #expect((0..<132).allSatisfy { display.ram(page: 7, column: $0) == 0 })
        // Not in read-modify-write any more: a read moves the cursor.
        display.commands([0xB0, 0x00, 0x10])
        display.data([0x11, 0x22, 0x33])
        display.commands([0xB0, 0x00, 0x10])
        #expect(Array(display.readData(4).dropFirst()) == [0x11, 0x22, 0x33])
        #expect(cbp_ssd1306_create_kind(display.avr, 0x3D, 9) == nil, "an unknown kind makes no part")
    }
}
