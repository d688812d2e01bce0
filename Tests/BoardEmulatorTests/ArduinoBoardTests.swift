@testable import BoardEmulator
import Foundation
import Testing

/// `ArduinoBoard`'s pin tables against the Arduino core's own variant files
/// (variants/*/pins_arduino.h of the core Hardware/boards.mk builds with):
/// every pin number's port and bit, where the analog pins start, and the bus.
@Suite struct ArduinoBoardTests {
    /// The core's AVR folder, as Hardware/boards.mk finds it.
    static let core = ProcessInfo.processInfo.environment["ARDUINO_AVR"] ?? "/usr/share/arduino/hardware/arduino/avr"

    /// A variant's pin table: pin number → port pin, PIN_A0, PIN_WIRE_SDA/SCL.
    struct Variant {
        var pins: [AVRPin] = []
        var a0 = 0, sda = 0, scl = 0
    }

    static func variant(_ name: String) throws -> Variant {
        let path = "\(core)/variants/\(name)/pins_arduino.h"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw AVRTestFailure("\(path) is missing: install the Arduino AVR core with scripts/install-deps (make test does)")
        }
        // Comments name pins too ("// PD 2 ** 2 ** ..."): drop them first.
        let code = text.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"//[^\n]*"#, with: "", options: .regularExpression)
        func array(_ name: String) throws -> String {
            guard let start = code.range(of: name), let open = code.range(of: "{", range: start.upperBound..<code.endIndex),
                  let close = code.range(of: "}", range: open.upperBound..<code.endIndex) else {
                throw AVRTestFailure("\(path): no \(name)")
            }
            return String(code[open.upperBound..<close.lowerBound])
        }
        func matches(_ pattern: String, in text: String) -> [String] {
            let regex = try! NSRegularExpression(pattern: pattern)
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                String(text[Range($0.range(at: 1), in: text)!])
            }
        }
        func define(_ name: String) throws -> Int {
            guard let value = matches(#"#define\s+"# + name + #"\s+\(?\s*(\d+)"#, in: code).first.flatMap({ Int($0) }) else {
                throw AVRTestFailure("\(path): no #define \(name)")
            }
            return value
        }
        let ports = matches(#"\bP([A-L])\b"#, in: try array("digital_pin_to_port_PGM"))
        let bits = matches(#"_BV\(\s*(\d)\s*\)"#, in: try array("digital_pin_to_bit_mask_PGM"))
        #expect(ports.count == bits.count, "\(name): \(ports.count) ports, \(bits.count) bits")
        var variant = Variant()
        variant.pins = zip(ports, bits).map { AVRPin(port: Character($0), bit: UInt8($1)!) }
        variant.a0 = try define("PIN_A0")
        variant.sda = try define("PIN_WIRE_SDA")
        variant.scl = try define("PIN_WIRE_SCL")
        return variant
    }

    @Test(arguments: [(ArduinoBoard.uno, "standard"), (.nano, "standard"), (.mega, "mega"), (.leonardo, "leonardo"), (.micro, "leonardo"),
                      (.proMicro8MHz, "leonardo"), (.proMini8MHz, "standard")])
    func pinsAreTheCoresVariantTable(board: ArduinoBoard, variantName: String) throws {
        let variant = try Self.variant(variantName)
        let header = board == .mega ? 54 : 14
        #expect(variant.pins.count > variant.a0)
        for (n, pin) in variant.pins.enumerated() {
            if n < header {
                #expect(board.digitalPin(n) == pin, "\(board) D\(n)")
                #expect(board.pin(named: "D\(n)") == pin && board.pin(named: "\(n)") == pin)
            } else if let analog = board.analogPin(n - variant.a0), n >= variant.a0 {
                #expect(analog == pin, "\(board) A\(n - variant.a0)")
                #expect(board.pin(named: "a\(n - variant.a0)") == pin)
            }
        }
        #expect(board.digitalPin(header) == nil, "the header ends at D\(header - 1)")
        #expect(board.sda == variant.pins[variant.sda] && board.scl == variant.pins[variant.scl])
        #expect(board.conflict(board.sda) != nil && board.conflict(board.scl) != nil)
        // Every pin's name leads back to it.
        for pin in variant.pins { #expect(board.pin(named: board.name(of: pin)) == pin, "\(board) \(pin)") }
    }

    /// INT where each board's MPU-6050 sketches put it; the serial port's pins
    /// are taken only where the serial port is a UART.
    @Test func theDefaultsAndTheSerialPins() {
        #expect(ArduinoBoard.uno.name(of: ArduinoBoard.uno.defaultInterruptPin) == "D2")
        #expect(ArduinoBoard.mega.defaultInterruptPin == AVRPin(port: "E", bit: 4))
        #expect(ArduinoBoard.leonardo.defaultInterruptPin == AVRPin(port: "E", bit: 6))
        #expect(ArduinoBoard.leonardo.name(of: AVRPin(port: "E", bit: 6)) == "D7")
        #expect(ArduinoBoard.uno.conflict(ArduinoBoard.uno.digitalPin(1)!) == "D1 is the UART's (the serial port)")
        #expect(ArduinoBoard.leonardo.conflict(ArduinoBoard.leonardo.digitalPin(1)!) == nil)
        #expect(ArduinoBoard.leonardo.name(of: AVRPin(port: "B", bit: 3)) == "PB3", "MISO is on the ICSP header only")
        #expect(ArduinoBoard.uno.pin(named: "PB6") == nil, "the Uno's crystal")
        #expect(ArduinoBoard.leonardo.mcu == "atmega32u4" && ArduinoBoard.micro.mcu == "atmega32u4")
    }
}
