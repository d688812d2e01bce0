import Foundation
import TiltCore

/// Wokwi's NTC temperature sensor module (`wokwi-ntc-temperature-sensor`): a
/// 10 kΩ NTC thermistor (at 25 °C, `beta` 3950 unless set) in series with
/// 10 kΩ, OUT between them with the NTC towards GND, so Wokwi's own formula,
/// 1 / (log(1 / (1023 / analogRead - 1)) / BETA + 1 / 298.15) - 273.15,
/// gives `temperature` back. At its default 24 °C analogRead gives 523 (23.99 °C by that formula).
/// It was ignored: OUT read 0, and such sketches printed -273.15 °C.
struct WokwiThermistor: Equatable, WokwiNumberAttrs {
    var celsius = 24.0
    var beta = 3950.0

    /// OUT in volts at a 5 V supply.
    var volts: Double {
        let ohms = 10_000 * exp(beta * (1 / (celsius + 273.15) - 1 / 298.15))
        return 5 * ohms / (ohms + 10_000)
    }

    /// OUT as the ADC takes it (`WokwiADC`).
    var millivolts: UInt32 { WokwiADC.millivolts(volts: volts) }

    /// The attrs it reads (`WokwiNumberAttrs.parse`).
    static let attrNames = ["temperature", "beta"]

    /// Sets one attr (set-control's `temperature` too); a problem outside what the part takes.
    mutating func set(_ name: String, _ value: Double) -> WokwiProblem? {
        switch name {
        case "temperature":
            guard value >= -55 && value <= 125 else { return WokwiProblem("temperature \(NumberText.plain(value)): use -55 to 125 °C") }
            celsius = value
        case "beta":
            guard value > 0 && value <= 100_000 else { return WokwiProblem("beta \(NumberText.plain(value)): use more than 0, up to 100000") }
            beta = value
        default:
            return WokwiProblem("no control \(quoted(name)); the NTC temperature sensor has temperature")
        }
        return nil
    }
}
