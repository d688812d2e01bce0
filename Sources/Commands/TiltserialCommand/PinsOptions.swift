import ArgumentParser

/// `--pins FILE`: where the pins dropped on the map are kept (run, pins).
struct PinsOptions: ParsableArguments {
    @Option(name: .customLong("pins"), help: ArgumentHelp(
        "The pins file (default: beside the config file, $XDG_CONFIG_HOME/tiltserial/pins.json, else ~/.config/tiltserial/pins.json).",
        valueName: "FILE"), completion: .file(extensions: ["json"]))
    var path: String?

    /// The file given, else the default one; nil when there is no default place
    /// (neither HOME nor XDG_CONFIG_HOME is set): the pins then live in memory.
    func store(paths: ConfigPaths) -> PinStore? {
        if let path { return PinStore(path: path, named: true) }
        return PinStore.defaultPath(paths).map { PinStore(path: $0) }
    }

    /// The file, for the `pins` commands, which need one.
    func requiredStore(paths: ConfigPaths) throws(Failure) -> PinStore {
        guard let store = store(paths: paths) else {
            throw Failure(.badSettings, "no place for the pins file: set HOME (or XDG_CONFIG_HOME), or pass --pins FILE")
        }
        return store
    }
}
