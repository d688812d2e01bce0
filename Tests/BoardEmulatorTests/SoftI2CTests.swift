import Testing
import TiltCore
import TiltDisplay
@testable import BoardEmulator

/// A sketch that bit-bangs I2C on the board's SDA/SCL pins, with the TWI off
/// (Fixtures/Sketches/soft_i2c: open drain, then push-pull as U8g2's fast path),
/// reaches the same MPU-6050 and SSD1306 models as Wire does (cbp_soft_i2c.c).
@Suite(.serialized) struct SoftI2CTests {
    /// soft_i2c.ino's pattern: page p, column c = (p * 128 + c) * 7 + p.
    static let pattern = (0..<1024).map { UInt8(truncatingIfNeeded: $0 * 7 + ($0 >> 7)) }

    @Test(arguments: [ArduinoBoard.uno, .leonardo])
    func aBitBangedMasterReadsTheSensorAndFillsTheDisplay(board: ArduinoBoard) throws {
        let sketch = try (board == .uno ? SketchFixtures.softI2C : SketchFixtures.softI2CLeonardo).get()
        let (outcome, record, _) = try SketchRunTests().run(sketch.hex, RunPlan(timeoutMicros: 10_000_000, steps: [
            .waitSerial(pattern: "^E$", timeoutMicros: nil),
            .saveScreen(name: "end"),
            .wait(micros: 20_000),  // the sketch waits for a 'w' that never comes: its pins stay its own
        ]), motion: ConstantMotionSource.faceUp, board: board)
        #expect(outcome == .passed)
        let text = String(decoding: record.serial, as: UTF8.self)
        // The sensor and the display acknowledge their addresses; nobody is at 0x50.
        #expect(text.contains("K 1 0 1\r\n"), "\(text)")
        // Bytes read open drain: WHO_AM_I, then the face-up board's 1 g on z.
        #expect(text.contains("W 68\r\nA 0 0 16384\r\n"), "\(text)")
        #expect(text.contains("D\r\nE\r\n"))
        // Written push-pull (ACKs never read): the whole RAM, upright on the glass.
        let screen = try #require(record.screens.first { $0.0 == "end" }?.1)
        #expect(screen.bytes == Self.pattern, "first difference at \(String(describing: zip(screen.bytes, Self.pattern).enumerated().first { $0.element.0 != $0.element.1 }))")
        #expect(!record.notes.contains { $0.0.contains("while the TWI is on") }, "nothing blocked with the TWI off")
    }

    /// After `Wire.begin()` the TWI owns the pins: SCL toggled as a pin reaches no slave, and the run says so once.
    @Test func pinsToggledWhileTheTWIOwnsThemAreNamed() throws {
        let sketch = try SketchFixtures.softI2C.get()
        let (outcome, record, _) = try SketchRunTests().run(sketch.hex, RunPlan(timeoutMicros: 10_000_000, steps: [
            .waitSerial(pattern: "^E$", timeoutMicros: nil),
            .wait(micros: 10_000),
            .sendSerial(Array("w".utf8)),
            .waitSerial(pattern: "^B$", timeoutMicros: nil),
            .wait(micros: 10_000),
        ]), motion: ConstantMotionSource.faceUp)
        #expect(outcome == .passed)
        let told = record.notes.filter { $0.0.contains("toggles SDA/SCL as pins while the TWI is on (Wire.begin)") }
        #expect(told.count == 1, "\(record.notes.map(\.0))")
    }
}
