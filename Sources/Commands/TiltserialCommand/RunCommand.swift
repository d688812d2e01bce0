import ArgumentParser
import SerialIO
import TiltAssets
import TiltPhysics
import TiltPipeline

/// `tiltserial [PORT]`: the live host.
struct Run: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Connect to the board and drive its display (the default command).")

    @OptionGroup var portOptions: PortOptions

    @Option(help: ArgumentHelp("Save the raw bytes with host times, for `tiltserial replay`.", valueName: "FILE"), completion: .file())
    var record: String?

    @OptionGroup var settings: SettingsOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var view: ViewOptions
    @OptionGroup var pins: PinsOptions

    func execute(_ context: CommandContext) throws(Failure) {
        let (resolved, config) = try settings.resolve(defaultFile: context.paths.configFile)
        let store = pins.store(paths: context.paths)
        let kept = try store?.load() ?? []
        let logger = context.console.logger()
        switch config {
        case .defaultFile(let file): logger.info("settings from \(file)")
        case .defaultMissing: CalibrationNotice.sayOnce(resolved, marker: context.paths.noticeMarker, console: context.console)
        case .none, .given: break
        }
        let path = try portOptions.resolve { logger.info("\($0)") }
        if let note = try PortPreflight.check(path: path, baud: resolved.baud) { logger.info("\(note)") }
        try Self.live(path: path, settings: resolved, output: output, view: view.view, record: record, context: context,
                      pinStore: store, pins: kept)
    }

    /// The live run with its console output (live view or log lines, JSON,
    /// --on-pull, the summary): what `tiltserial PORT` does once its options are
    /// read. `transport`: an already-open port (e.g. an emulated board's pty);
    /// nil opens `path`. `observe` sees every event after the output has (the
    /// demo steers its emulated board with it). `pins`: kept from earlier runs;
    /// `pinStore`: where drops are saved (nil: memory only). Returns after
    /// Ctrl-C / `context.stop`, or throws.
    @discardableResult
    static func live(
        path: String, settings: HostSettings, output: OutputOptions, view: ViewMode = .auto, record: String?, context: CommandContext,
        transport: (any SerialTransport)? = nil, observe: ((HostEvent) -> Void)? = nil,
        pinStore: PinStore? = nil, pins: [Pin] = []
    ) throws(Failure) -> HostSummary {
        let art = try HostRunner.loadArt()
        let out = try RunOutput(console: context.console, output: output, port: path, renderer: art.renderer, view: view,
                                pinStore: pinStore, pins: pins)
        out.observe = observe
        var options = HostRunOptions(port: path, settings: settings, recordPath: record)
        options.pins = pins
        if out.view == nil { options.timing.refreshMicros = 3_600_000_000 }  // nothing to redraw: no wake-ups for it
        let runner = try HostRunner(options: options, output: out, art: art)
        if context.handleSignals { StopSignals.install(context.stop) }
        defer { if context.handleSignals { StopSignals.restore() } }
        out.view?.start(wake: context.handleSignals ? context.stop : nil)
        let summary: HostSummary
        do {
            summary = try runner.run(transport: transport, stop: context.stop)
        } catch {
            let extras = out.hookSummary(out.finish()) + recordingSummary(runner)
            if let summary = runner.lastSummary { context.console.writeErr("tiltserial: stopped: \(summary.line)\(extras)\n") }
            throw error
        }
        let extras = out.hookSummary(out.finish()) + recordingSummary(runner)
        context.console.writeErr("tiltserial: stopped: \(summary.line)\(extras)\n")
        return summary
    }

    /// What the summary line adds when `--record` could not write everything.
    static func recordingSummary(_ runner: HostRunner) -> String {
        guard let loss = runner.recordingLoss else { return "" }
        return ", recording: \(ForPeople.count(loss.records, "record")) (\(ForPeople.count(loss.bytes, "byte"))) not written"
    }
}
