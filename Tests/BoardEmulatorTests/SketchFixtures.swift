import Foundation
import BoardEmulator

/// Firmware the tests run, built by the Makefile before `swift test` (`make
/// test` does it; the tests build nothing). Found from this file's folder, not
/// the working directory; a missing file fails the test with one line naming
/// the make target that builds it.
enum BuiltFirmware {
    /// The package root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// Where `make fixtures` puts the fixtures (Tests/BoardEmulatorTests/Fixtures/Makefile).
    static let fixtures = "Tests/BoardEmulatorTests/Fixtures/build"

    /// Our firmware, Hardware/build/tiltserial.elf.
    static func tiltserial() throws -> String {
        try existing(FirmwareLocation.inSourceTree, builtBy: "make -C Hardware").get()
    }

    /// Our firmware's build for `board` (the Uno's is `tiltserial()`).
    static func tiltserial(for board: ArduinoBoard) throws -> String {
        try existing(FirmwareLocation.inSourceTree(board: board.rawValue), builtBy: "make -C Hardware check").get()
    }

    /// The avr-libc program Fixtures/NAME.c.
    static func program(_ name: String) -> Result<String, AVRTestFailure> {
        existing("\(fixtures)/\(name).elf", builtBy: "make fixtures")
    }

    /// `relative` (to the package root) as an absolute path, if the file is there.
    static func existing(_ relative: String, builtBy target: String) -> Result<String, AVRTestFailure> {
        let path = root + "/" + relative
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(AVRTestFailure("\(relative) is missing: build it with \(target) (make test does)"))
        }
        return .success(path)
    }
}

/// Fixture sketches (Fixtures/Sketches/NAME/NAME.ino), built with avr-gcc and
/// the Arduino core by Hardware/sketch.mk (`make fixtures`), as ELF and as the
/// Intel HEX the Arduino IDE exports.
enum SketchFixtures {
    struct Built: Sendable {
        let elf: String
        let hex: String
    }

    static let bootEcho = built("boot_echo")
    /// D4 (an LED to GND) and D5 (an LED from 5V) read as inputs.
    static let ledInput = built("led_input")
    /// D13 high by digitalWrite, D9 dimmed by analogWrite, then "pwm on".
    static let pwmLED = built("pwm_led")
    /// boot_echo built for the Leonardo, whose port opening resets nothing.
    static let bootEchoLeonardo = built("boot_echo", folder: "sketches-leonardo")
    /// A button on D2 beside an LED the loop toggles on the same port, and analogRead(A6).
    static let buttonPort = built("button_port")
    /// Prints a joystick's axes and SEL (A1, A0, D2) and a light module's AO and DO (A2, D7).
    static let analogParts = built("analog_parts")
    /// An HC-SR04 read as Wokwi's example does (TRIG D3, ECHO D2, pulseIn / 58).
    static let ranger = built("ranger")
    /// An HC-SR04 on one pin (D7), triggered as NewPing's one-pin mode does.
    static let rangerOnePin = built("ranger_one_pin")
    /// A DHT22 on D2 read bit by bit as DHTlib-style sketches do (its start signal 1 ms, then 300 µs once).
    static let humidity = built("humidity")
    /// An HX711 (DT D3, SCK D2) read with shiftIn; a power-down and wake-up once.
    static let loadCell = built("load_cell")
    /// DS18B20s on D2 found by the ROM search and read by MATCH ROM, bit by bit as OneWire does.
    static let thermometers = built("thermometers")
    static let tiltBar = built("tilt_bar")
    static let intPin = built("int_pin")
    /// int_pin built for the Leonardo (its Serial on the ATmega32U4's USB).
    static let intPinLeonardo = built("int_pin", folder: "sketches-leonardo")
    /// A sketch built with a library of its own (Hardware/sketch.mk's LIBS) and the core's SPI.
    static let libUser = built("lib_user")
    /// Two .ino tabs that call functions defined later, a .c file and a .S under src/ (the IDE's preprocessing).
    static let inoTabs = built("ino_tabs")
    /// A master that toggles SDA and SCL itself, open drain and push-pull (Uno and Leonardo builds).
    static let softI2C = built("soft_i2c")
    static let softI2CLeonardo = built("soft_i2c", folder: "sketches-leonardo")
    /// A0, A8 and A15 of a Mega, printed as they change (Mega only).
    static let megaAnalog = built("mega_analog", folder: "sketches-mega")
    /// A Mega sketch on Serial and Serial2 (which echoes lines).
    static let serial2Mega = built("serial2", folder: "sketches-mega")
    /// A Leonardo air mouse's reports through the core's HID library (Leonardo only).
    static let hidMouse = built("hid_mouse", folder: "sketches-leonardo")
    /// 100 bytes through Serial at 9600 8N1 and 8E1, timed with micros().
    static let uartTime = built("uart_time")
    /// Prints before Serial.begin and hangs in Serial.write (TiltsimRunCommandTests).
    static let serialUnbegun = built("serial_unbegun")
    /// Overflow interrupts a second in the timers' dual-slope modes (and one fast PWM mode).
    static let timerSlopes = built("timer_slopes")
    /// INT0 at low level enabled on a line already held low, and on one let go.
    static let intLevel = built("int_level")
    /// EIFR, PCIFR, ADIF, ACI, WDIF and TIFR1 cleared by a written one; INT0 at low level; SBI/CBI on EIFR; PCINT on a pin made an output.
    static let intFlags = built("int_flags")
    /// readVcc (the bandgap against AVCC) and the temperature sensor.
    static let adcRefs = built("adc_refs")
    /// Counts its boots in EEPROM byte 0.
    static let eepromBoots = built("eeprom_boots")
    /// Idle, power-down until the watchdog or INT0, SLEEP without SE, the watchdog's interrupt mode.
    static let sleepModes = built("sleep_modes")
    /// The reboot idiom: the watchdog at 15 ms and a loop, 100 ms after each start.
    static let wdtReboot = built("wdt_reboot")
    /// Timer0 powered down (PRR) over delays, a clock write and an idle sleep.
    static let powerReduction = built("power_reduction")
    /// Power-down sleeps under the MPU-6050's INT edges, ended by the watchdog.
    static let sleepEdges = built("sleep_edges")
    /// The ADC started by Timer1's compare B: its flag cleared by an ISR, by nothing, by a written one.
    static let adcTrigger = built("adc_trigger")
    /// 200 SPI.transfer bytes at 8 MHz and at 125 kHz, timed; one byte with SPIE.
    static let spiTime = built("spi_time")
    /// D0 (the serial port's RX) read before Serial.begin, on the Uno and the Mega.
    static let rxIdle = built("rx_idle")
    static let rxIdleMega = built("rx_idle", folder: "sketches-mega")
    /// `sei; nop; cli` over a pending interrupt; ISRs between 200 NOPs under an always pending one.
    static let seiWindow = built("sei_window")
    /// D7 driving D6, D3 pulsing INT0 on D2, D8 driving D9 and D10: wires between the board's pins.
    static let jumper = built("jumper")
    /// A call through a function pointer into erased flash: it runs on to the end of flash.
    static let erasedJump = built("erased_jump")
    /// How long EEPE stays set, 100 EEPROM.write calls, 100 updates.
    static let eepromTime = built("eeprom_time")

    /// Sketch NAME's ELF and HEX.
    static func built(_ name: String, folder sketches: String = "sketches") -> Result<Built, AVRTestFailure> {
        let folder = "\(BuiltFirmware.fixtures)/\(sketches)/\(name)/\(name)"
        return BuiltFirmware.existing(folder + ".elf", builtBy: "make fixtures").flatMap { elf in
            BuiltFirmware.existing(folder + ".hex", builtBy: "make fixtures").map { Built(elf: elf, hex: $0) }
        }
    }
}
