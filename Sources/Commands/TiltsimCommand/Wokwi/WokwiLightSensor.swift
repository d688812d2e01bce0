import Foundation
import TiltCore

/// Wokwi's photoresistor module (`wokwi-photoresistor-sensor`): an LDR in
/// series with 10 kΩ, AO between them, and DO high in the dark (AO above
/// `threshold` volts). The LDR's resistance follows its datasheet's line:
/// R = rl10 · (10 / lux)^gamma (rl10 kΩ at 10 lux). With Wokwi's defaults
/// (500 lux, rl10 50, gamma 0.7) AO is 1.22 V, analogRead 250, as in Wokwi.
struct WokwiLightSensor: Equatable, WokwiNumberAttrs {
    var lux = 500.0
    var threshold = 2.5
    var rl10 = 50.0
    var gamma = 0.7

    /// AO in volts at a 5 V supply.
    var volts: Double {
        let ohms = rl10 * 1000 * pow(10 / lux, gamma)
        return 5 * ohms / (ohms + 10_000)
    }

    /// AO as the ADC takes it (`WokwiADC`).
    var millivolts: UInt32 { WokwiADC.millivolts(volts: volts) }

    /// DO: high while the light is below the threshold (AO above it).
    var digitalHigh: Bool { volts > threshold }

    /// The attrs it reads (`WokwiNumberAttrs.parse`).
    static let attrNames = ["lux", "threshold", "rl10", "gamma"]

    /// Sets one attr (set-control's `lux` too); a problem if it is outside what the module takes.
    mutating func set(_ name: String, _ value: Double) -> WokwiProblem? {
        switch name {
        case "lux":
            guard value > 0 && value <= 1_000_000 else { return WokwiProblem("lux \(value): use more than 0, up to 1000000") }
            lux = value
        case "threshold":
            guard value >= 0 && value <= 5 else { return WokwiProblem("threshold \(value): use 0…5 V") }
            threshold = value
        case "rl10":
            guard value > 0 else { return WokwiProblem("rl10 \(value): a resistance in kΩ, more than 0") }
            rl10 = value
        case "gamma":
            guard value > 0 && value <= 2 else { return WokwiProblem("gamma \(value): use more than 0, up to 2") }
            gamma = value
        default:
            return WokwiProblem("no control \(quoted(name)); the photoresistor module has lux")
        }
        return nil
    }
}
