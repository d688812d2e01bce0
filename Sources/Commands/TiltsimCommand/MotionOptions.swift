import ArgumentParser
import BoardEmulator
import Foundation
import TiltCore
import TiltExitStatus

/// What the emulated sensor feels: a named scenario, a script file or a recorded CSV.
struct MotionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A named motion: \(Scenarios.names.joined(separator: ", ")) (default: rest, our firmware's rest pose, 30° back from upright; for tiltsim run flat, on the table, as a sketch that calibrates at power-on expects).", valueName: "name"), completion: .list(Scenarios.names))
    var motion: String?

    @Option(help: ArgumentHelp("A motion script: lines 'seconds back° right° [turn°]' (back: 0 upright facing you, 90 face-up; right: right side down).", valueName: "file"), completion: .file())
    var script: String?

    @Option(help: ArgumentHelp("A recorded sample CSV (\(SampleCSV.header)).", valueName: "file"), completion: .file(extensions: ["csv"]))
    var csv: String?

    @Option(help: ArgumentHelp("Sensor noise, times the MPU-6050 datasheet density (0 = none).", valueName: "scale"))
    var noise: Double = 1

    @Flag(help: "Play the motion again and again (default: hold its last pose).")
    var loop = false

    func validate() throws {
        let given = [motion, script, csv].compactMap { $0 }
        if given.count > 1 { throw CommandFailure.usage("give one of --motion, --script, --csv") }
        if let motion, Scenarios.named(motion) == nil {
            throw CommandFailure.usage("--motion \(shortened(motion)): unknown; use one of \(Scenarios.names.joined(separator: ", "))")
        }
        if !(noise >= 0 && noise <= 100) { throw CommandFailure.usage("--noise \(noise): use a scale from 0 to 100") }
    }

    /// The motion's path, read from its file if one was named.
    func path() throws(CommandFailure) -> Motion.Path {
        if let script {
            let text = try Self.read(script, what: "motion script")
            do { return .script(try MotionScript(parsing: text)) } catch {
                throw .file("\(script): \(error.description)")
            }
        }
        if let csv { return try Self.recorded(csv) }
        return .script(Scenarios.named(motion ?? "rest") ?? Scenarios.rest)
    }

    /// Whether any of --motion, --script, --csv was given.
    var isGiven: Bool { motion != nil || script != nil || csv != nil }

    /// A recorded sample CSV as a motion.
    static func recorded(_ csv: String) throws(CommandFailure) -> Motion.Path {
        let text = try read(csv, what: "sample CSV")
        do {
            let rows = try SampleCSV.parse(text)
            guard !rows.isEmpty else { throw CommandFailure.file("\(csv): no samples; a sample CSV has a line t_us,ax,ay,az (raw counts) for each (docs/usage.md, replay)") }
            return .recorded(rows)
        } catch let error as SampleCSV.ParseError {
            throw .file("\(csv) \(error.description)")
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw .file("\(csv): \(error)")
        }
    }

    /// The motion for a sensor sampling at `rateHz`, noise seeded per board.
    func source(path: Motion.Path, rateHz: Double, seed: UInt64) -> Motion {
        Motion(path, noise: noise > 0 ? SensorNoise(sampleRate: rateHz, seed: seed, scale: noise) : .none)
    }

    static func read(_ file: String, what: String) throws(CommandFailure) -> String {
        let data = try InputFile.read(file, what: what)
        guard let text = String(data: data, encoding: .utf8) else { throw .file("\(file): not a text file; a \(what) is UTF-8 text") }
        return text
    }
}
