import ArgumentParser
@_exported import TiltserialSettings

private func help(_ flag: String) -> ArgumentHelp {
    ArgumentHelp(SettingSpec.spec(flag: flag)?.optionHelp ?? "")
}

/// The physics and host settings as options, shared by `run` and `replay`.
/// Each option's key, type, unit, range, default and help live in
/// `SettingSpec.all` (module TiltserialSettings); this group only declares
/// them for ArgumentParser and lists them in `given`.
struct SettingsOptions: ParsableArguments {
    @Option(help: "JSON settings file (keys as in docs/usage.md, at most 64 KiB); options given here win over it.")
    var config: String?

    @Option(name: .customLong("physics"), help: help("physics")) var mode: String?
    @Option(name: .customLong("tick-ms"), help: help("tick-ms")) var tickMs: String?
    @Option(name: .customLong("base-gain"), help: help("base-gain")) var baseGain: String?
    @Option(name: .customLong("gain-ramp"), help: help("gain-ramp")) var gainRamp: String?
    @Option(name: .customLong("gain-cap"), help: help("gain-cap")) var gainCap: String?
    @Option(name: .customLong("dead-zone"), help: help("dead-zone")) var deadZone: String?
    @Option(name: .customLong("y-scale"), help: help("y-scale")) var yScale: String?
    @Option(name: .customLong("filter-ms"), help: help("filter-ms")) var filterMs: String?
    @Option(name: .customLong("rest-angle"), help: help("rest-angle")) var restAngle: String?
    @Option(name: .customLong("ribbon-center-x"), help: help("ribbon-center-x")) var ribbonCenterX: String?
    @Option(name: .customLong("ribbon-rest-visible"), help: help("ribbon-rest-visible")) var ribbonRestVisible: String?
    @Option(name: .customLong("ribbon-pixels-per-point"), help: help("ribbon-pixels-per-point")) var ribbonPixelsPerPoint: String?
    @Option(name: .customLong("stretch-points-per-pixel"), help: help("stretch-points-per-pixel")) var stretchPointsPerPixel: String?
    @Option(name: .customLong("stretch-limit"), help: help("stretch-limit")) var stretchLimit: String?
    @Option(name: .customLong("fire-threshold"), help: help("fire-threshold")) var fireThreshold: String?
    @Option(name: .customLong("rollback-ms"), help: help("rollback-ms")) var rollbackMs: String?
    @Option(name: .customLong("grab-alpha"), help: help("grab-alpha")) var grabAlpha: String?
    @Option(name: .customLong("wiggle-depth"), help: help("wiggle-depth")) var wiggleDepth: String?
    @Option(name: .customLong("wiggle-half-ms"), help: help("wiggle-half-ms")) var wiggleHalfMs: String?
    @Option(name: .customLong("wiggle-starts-ms"), help: help("wiggle-starts-ms")) var wiggleStartsMs: String?
    @Option(name: .customLong("sway-pixels-per-g"), help: help("sway-pixels-per-g")) var swayPixelsPerG: String?
    @Option(name: .customLong("sway-limit"), help: help("sway-limit")) var swayLimit: String?
    @Option(name: .customLong("drawer-height"), help: help("drawer-height")) var drawerHeight: String?
    @Option(name: .customLong("axes"), help: help("axes")) var axes: String?
    @Option(name: .customLong("baud"), help: help("baud")) var baud: String?
    @Option(name: .customLong("dtr"), help: help("dtr")) var dtr: String?
    @Option(name: .customLong("hello-timeout"), help: help("hello-timeout")) var helloTimeout: String?
    @Option(name: .customLong("reconnect"), help: help("reconnect")) var reconnect: String?

    @Flag(name: .customLong("no-dtr"), help: "Same as --dtr leave: don't reset the board when opening.")
    var noDTR = false
    @Flag(name: .customLong("no-reconnect"), help: "Exit (code 17) when the board is unplugged instead of waiting for it.")
    var noReconnect = false

    /// (option name, text) for every option given.
    var given: [(String, String)] {
        let all: [(String, String?)] = [
            ("physics", mode), ("tick-ms", tickMs), ("base-gain", baseGain), ("gain-ramp", gainRamp), ("gain-cap", gainCap),
            ("dead-zone", deadZone), ("y-scale", yScale), ("filter-ms", filterMs), ("rest-angle", restAngle),
            ("ribbon-center-x", ribbonCenterX), ("ribbon-rest-visible", ribbonRestVisible),
            ("ribbon-pixels-per-point", ribbonPixelsPerPoint), ("stretch-points-per-pixel", stretchPointsPerPixel),
            ("stretch-limit", stretchLimit), ("fire-threshold", fireThreshold), ("rollback-ms", rollbackMs),
            ("grab-alpha", grabAlpha), ("wiggle-depth", wiggleDepth), ("wiggle-half-ms", wiggleHalfMs),
            ("wiggle-starts-ms", wiggleStartsMs), ("sway-pixels-per-g", swayPixelsPerG), ("sway-limit", swayLimit), ("drawer-height", drawerHeight),
            ("axes", axes), ("baud", baud), ("dtr", dtr), ("hello-timeout", helloTimeout), ("reconnect", reconnect),
        ]
        var result = all.compactMap { flag, value in value.map { (flag, $0) } }
        if noDTR { result.append(("dtr", "leave")) }
        if noReconnect { result.append(("reconnect", "false")) }
        return result
    }

    /// Defaults, then the config file, then the options; validated.
    func resolve() throws(Failure) -> HostSettings {
        do {
            var resolver = SettingsResolver()
            if let config { try resolver.addConfig(try ConfigFile.bytes(path: config), path: config) }
            for (flag, text) in given { try resolver.addOption(flag: flag, text: text) }
            return try resolver.resolve()
        } catch let error as SettingsError {
            throw Failure(.badSettings, error.message)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(.badSettings, "\(error)")
        }
    }
}
