import TiltCore
import TiltPhysics
import TiltserialSettings

// libFuzzer entry for the config-file reader (no main.swift). Whatever the
// bytes, the reader returns settings or one short line; settings it accepts
// must run through the physics without trapping.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let settings = try SettingsResolver.read(config: bytes, path: "fuzz.json")
        checkAccepted(settings)
    } catch {
        let message = error.message
        require(!message.isEmpty, "an empty error")
        require(!message.contains("\n") && !message.contains("\r"), "a message of more than one line: \(message.prefix(200))")
        // The longest is an unknown key's (it lists the known keys); quoted values are cut at 40 characters.
        require(message.unicodeScalars.count < 1000, "a message of \(message.unicodeScalars.count) characters")
    }
    return 0
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// A tiny ribbon: the engine only needs some art.
let art = AlphaMask(width: 4, height: 4, alpha: [UInt8](repeating: 200, count: 16))!
let geometry = ContentGeometry(displayWidth: 128, displayHeight: 64, tileWidth: 256, tileHeight: 128)

func checkAccepted(_ settings: HostSettings) {
    for spec in SettingSpec.all {
        // Every value the reader let through is one the table accepts.
        require(spec.accepts(spec.value(in: settings)), "\(spec.key) accepted out of range")
    }
    var engine: TiltEngine
    do {
        engine = try TiltEngine(settings: settings.physics, geometry: geometry, ribbonArt: art,
                                converter: SampleConverter(accelRange: .g16, mapping: settings.axes))
    } catch {
        fatalError("accepted settings the engine refuses: \(error)")
    }
    var t: UInt64 = 1_000_000
    let extremes: [Int16] = [.max, .min, 0, .max / 3]
    for i in 0..<64 {
        t += UInt64(i % 5) * 7_919 + (i == 40 ? 5_000_000_000 : 0)
        let raw = RawSample(accel: Axes3(x: extremes[i % 4], y: extremes[(i / 4) % 4], z: extremes[(i / 16) % 4]))
        engine.ingest(TimedSample(timeMicros: t, sequence: UInt8(truncatingIfNeeded: i), raw: raw)) { _ in }
        if i == 20 { engine.calibrateToCurrentPose() }
    }
}
