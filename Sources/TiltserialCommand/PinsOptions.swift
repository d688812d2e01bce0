import ArgumentParser

/// `--pins FILE`: where the pins dropped on the map are kept (run, demo, pins).
struct PinsOptions: ParsableArguments {
    @Option(name: .customLong("pins"), help: ArgumentHelp(
        "The pins file (default: $XDG_CONFIG_HOME/tiltserial/pins.json, else ~/.config/tiltserial/pins.json).",
        valueName: "FILE"))
    var path: String?

    /// The file given, else the default one.
    func store() throws(Failure) -> PinStore {
        if let path { return PinStore(path: path) }
        return PinStore(path: try PinStore.defaultPath())
    }
}
