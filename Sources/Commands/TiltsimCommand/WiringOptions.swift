import ArgumentParser
import BoardEmulator
import TiltExitStatus

/// `--display`, `--display-address`, `--display-max-clock`, `--sensor-address`, `--sensor`,
/// `--sensor-int`: how the AVR board's parts are wired, for sketches written for other modules.
struct WiringOptions: ParsableArguments {
    @Option(name: .customLong("display-address"), help: ArgumentHelp("The SSD1306's I2C address: 0x3C (default), 0x3D (SA0 high) or none (no display). avr only.", valueName: "addr"), completion: .list(["0x3C", "0x3D", "none"]))
    var displayAddress: String?

    @Option(name: .customLong("display"), help: ArgumentHelp("The display's controller: ssd1306 (0.96\" modules, default), sh1106 (1.3\" modules) or ssd1306-128x32 (0.91\" modules). avr only.", valueName: "part"), completion: .list(["ssd1306", "sh1106", "ssd1306-128x32"]))
    var display: String?

    @Option(name: .customLong("display-max-clock"), help: ArgumentHelp("The fastest I2C clock the display acknowledges at, 100k to 1m (400k, 800k, 1m) or any (default: a module that takes 1 MHz). avr only.", valueName: "clock"))
    var displayMaxClock: String?

    @Option(name: .customLong("sensor-address"), help: ArgumentHelp("The MPU-6050's I2C address: 0x68 (default), 0x69 (AD0 high) or none (no sensor). avr only.", valueName: "addr"), completion: .list(["0x68", "0x69", "none"]))
    var sensorAddress: String?

    @Option(name: .customLong("sensor"), help: ArgumentHelp("The sensor part: mpu6050 (default), mpu6500, mpu9250, mpu9255, or a look-alike's WHO_AM_I (e.g. 0x98). avr only.", valueName: "part"), completion: .list(["mpu6050", "mpu6500", "mpu9250", "mpu9255"]))
    var sensorPart: String?

    @Option(name: .customLong("sensor-int"), help: ArgumentHelp("The pin the MPU-6050's INT drives, as the board's header names it: D2 (default; D7 on a Leonardo, Micro or Pro Micro), another pin (D3, D8, A0, ...) or none. avr only.", valueName: "pin"))
    var sensorInterrupt: String?

    /// Whether any wiring option was given.
    var isGiven: Bool {
        display != nil || displayAddress != nil || displayMaxClock != nil || sensorAddress != nil || sensorPart != nil
            || sensorInterrupt != nil
    }

    /// Checks the options for `board` (the pin names are the board's).
    func validate(on board: ArduinoBoard) throws {
        do { _ = try wiring(over: .standard, board: board) } catch { throw CommandFailure.usage(error.message) }
    }

    /// The options over `base` (a scenario's `board:`, or the standard wiring), pins named as on `board`.
    func wiring(over base: BoardWiring, board: ArduinoBoard) throws(WiringProblem) -> BoardWiring {
        var wiring = base
        do {
            if let displayAddress { wiring.displayAddress = try BoardWiring.displayAddress(displayAddress).get() }
        } catch { throw error.from("--display-address") }
        do {
            if let display { wiring.display = try BoardWiring.display(display).get() }
        } catch { throw error.from("--display") }
        do {
            if let displayMaxClock { wiring.displayMaxClockHz = try BoardWiring.displayMaxClock(displayMaxClock).get() }
        } catch { throw error.from("--display-max-clock") }
        do {
            if let sensorAddress { wiring.sensorAddress = try BoardWiring.sensorAddress(sensorAddress).get() }
        } catch { throw error.from("--sensor-address") }
        do {
            if let sensorPart { wiring.sensorWhoAmI = try BoardWiring.sensorPart(sensorPart).get() }
        } catch { throw error.from("--sensor") }
        do {
            if let sensorInterrupt { wiring.sensorInterrupt = try BoardWiring.interruptPin(sensorInterrupt, on: board).get() }
        } catch { throw error.from("--sensor-int") }
        return wiring
    }

    /// The same, as a usage failure (64) for the commands' error paths.
    func resolved(over base: BoardWiring, board: ArduinoBoard) throws(CommandFailure) -> BoardWiring {
        do { return try wiring(over: base, board: board) } catch { throw .usage(error.message) }
    }
}
