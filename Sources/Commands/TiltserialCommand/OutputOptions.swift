import ArgumentParser

/// What a run or replay prints and triggers.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object per tick, and one per event (format, hello, parts, drawer, pull_out, pin, ...), on stdout; schema in docs/usage.md.")
    var json = false

    @Option(name: .customLong("on-pull"), help: ArgumentHelp(
        "Run CMD each time the ribbon fires; data in TILT_* environment variables (no shell).", valueName: "CMD"))
    var onPull: String?

    @Option(name: .customLong("on-pin"), help: ArgumentHelp(
        "Run CMD each time an item is dropped as a pin; data in TILT_* environment variables (no shell).", valueName: "CMD"))
    var onPin: String?
}
