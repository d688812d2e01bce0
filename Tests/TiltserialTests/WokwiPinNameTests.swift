import BoardEmulator
import Foundation
import Testing
@testable import TiltsimCommand

/// diagram.json's header pin names as Wokwi's board parts give them
/// (wokwi-elements' pinInfo), pure: no simulator.
@Suite struct WokwiPinNameTests {
    @Test func aPinBroughtOutTwiceIsTheSamePin() {
        let uno = WokwiBoard.uno, nano = WokwiBoard.nano, mega = WokwiBoard.mega
        // The Uno R3's SDA/SCL by AREF.
        #expect(uno.pin("A4.2") == .io(uno.sda) && uno.pin("A4.2") == uno.pin("A4"))
        #expect(uno.pin("A5.2") == .io(uno.scl) && uno.pin("A5.2") == uno.pin("A5"))
        // The Nano's ICSP header and its second 5V, RESET and GND.
        for (copy, pin) in [("12.2", "12"), ("13.2", "13"), ("11.2", "11"), ("5V.2", "5V"), ("RESET.3", "RESET"), ("GND.3", "GND")] {
            #expect(nano.pin(copy) != nil && nano.pin(copy) == nano.pin(pin), "\(copy)")
        }
        #expect(mega.pin("5V.1") == .supply && mega.pin("GND.5") == .ground)
        #expect(mega.pin("SDA") == mega.pin("20") && mega.pin("SCL") == mega.pin("21"))
        // Names no board has stay unknown; "3.3V" is a supply, not pin 3's copy.
        #expect(uno.pin("3.3V") == .supply)
        #expect(uno.pin("SDX") == nil && uno.pin("A4.x") == nil && uno.pin("B7") == nil)
    }

    func setup(_ json: String) throws -> WokwiSetup {
        let diagram = try WokwiDiagram.parse(Data(json.utf8), file: "diagram.json").get()
        return try WokwiSetup.resolve(diagram, file: "diagram.json").get()
    }

    @Test func partsOnTheUnosHeaderBusAreOnTheBus() throws {
        let wired = try setup("""
            {"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno"}, {"type": "wokwi-mpu6050", "id": "imu1"},
              {"type": "board-ssd1306", "id": "oled1"}],
             "connections": [["imu1:SDA", "uno:A4.2", "green", []], ["imu1:SCL", "uno:A5.2", "blue", []],
              ["oled1:SDA", "uno:A4.2", "green", []], ["oled1:SCL", "uno:A5.2", "blue", []],
              ["imu1:GND", "uno:GND.1", "black", []], ["imu1:VCC", "uno:5V", "red", []]]}
            """)
        #expect(wired.sensorID == "imu1" && wired.displayID == "oled1")
        #expect(wired.wiring.sensorAddress == 0x68 && wired.wiring.displayAddress == 0x3C)
        #expect(wired.notices.isEmpty, "\(wired.notices)")
    }

    /// A wire from another pin to the bus's A4 (or to the sensor's SDA) joins
    /// that pin to the bus; the sensor stays on it. The first board pin of
    /// the net was compared with A4, and D7 took the MPU-6050 off the bus.
    @Test func aWireFromAnotherPinLeavesAPartOnTheBus() throws {
        for extra in [#"["uno:7", "uno:A4", "", []]"#, #"["imu1:SDA", "uno:7", "", []]"#] {
            let wired = try setup("""
                {"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno"}, {"type": "wokwi-mpu6050", "id": "imu1"}],
                 "connections": [["imu1:SDA", "uno:A4", "green", []], ["imu1:SCL", "uno:A5", "blue", []], \(extra)]}
                """)
            #expect(wired.sensorID == "imu1", "\(extra): \(wired.notices)")
            #expect(wired.jumpers.count == 1, "\(extra): D7 and A4 joined")
        }
    }

    /// An I2C part tiltsim does not model answers nothing on the bus: said
    /// (an I2C scanner found no LCD and the line only said "ignored").
    @Test func anUnmodelledI2CPartIsSaidToAnswerNothing() throws {
        let wired = try setup("""
            {"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno"},
              {"type": "wokwi-lcd1602", "id": "lcd1", "attrs": {"pins": "i2c"}}, {"type": "wokwi-servo", "id": "s1"}],
             "connections": [["lcd1:SDA", "uno:A4", "", []], ["lcd1:SCL", "uno:A5", "", []]]}
            """)
        #expect(wired.notices.contains("diagram.json: not modelled by tiltsim, so ignored (its pins read as wires; a set-control or "
                                       + "take-screenshot naming one is refused; nothing answers at an I2C part's address): "
                                       + "wokwi-lcd1602 'lcd1'; wokwi-servo 's1'"), "\(wired.notices)")
    }

    @Test func aWireToAPinTheBoardLacksIsNamed() throws {
        let wired = try setup("""
            {"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno"}, {"type": "wokwi-mpu6050", "id": "imu1"}],
             "connections": [["imu1:SDA", "uno:SDA1", "green", []], ["imu1:SCL", "uno:A5", "blue", []], ["uno:SDA1", "uno:D99", "", []]]}
            """)
        #expect(wired.sensorID == nil)
        #expect(wired.notices.contains("diagram.json: wokwi-arduino-uno 'uno' has no pin 'SDA1' (Wokwi names them 13, A4, A4.2, GND.1, 5V…): its wires are ignored"), "\(wired.notices)")
        #expect(wired.notices.contains { $0.contains("has no pin 'D99'") })
        #expect(wired.notices.filter { $0.contains("'SDA1'") }.count == 1, "once a pin, however many wires")
    }

    /// D2, a0 or the Uno's SDA are wired here (the maker meant them), but
    /// Wokwi's parts do not have these names and leave such wires
    /// unconnected: a test passing here would fail there, so each is named
    /// once. Every name in wokwi-cli's lint registry is taken silently.
    @Test func aPinNameWokwiLacksIsWiredAndNamed() throws {
        let wired = try setup("""
            {"version": 1, "parts": [{"type": "wokwi-arduino-uno", "id": "uno"}, {"type": "wokwi-pushbutton", "id": "b1"},
              {"type": "wokwi-mpu6050", "id": "imu1"}],
             "connections": [["b1:1.l", "uno:D2", "green", []], ["b1:2.l", "uno:GND.1", "black", []],
              ["imu1:SDA", "uno:SDA", "green", []], ["imu1:SCL", "uno:a5", "blue", []], ["imu1:INT", "uno:D2", "", []]]}
            """)
        #expect(wired.buttons["b1"] != nil && wired.sensorID == "imu1", "wired as meant")
        let lines = wired.notices.filter { $0.contains("is not a pin name of Wokwi's wokwi-arduino-uno") }
        #expect(lines.count == 3, "\(wired.notices)")
        #expect(wired.notices.contains("diagram.json: 'uno:D2' is not a pin name of Wokwi's wokwi-arduino-uno (it names them 13, A4, A4.2, GND.1, 5V…): "
                                       + "wired here, but Wokwi leaves the wire unconnected; write it as Wokwi does"), "\(wired.notices)")
        for board in WokwiBoard.allCases {
            for name in board.wokwiPinNames { #expect(board.pin(name) != nil, "\(board) \(name)") }
        }
        #expect(WokwiBoard.mega.wokwiPinNames.contains("SDA") && !WokwiBoard.uno.wokwiPinNames.contains("SDA"))
    }
}
