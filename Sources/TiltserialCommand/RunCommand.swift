import ArgumentParser
import TiltAssets

/// `tiltserial [PORT]`: the live host.
struct Run: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Connect to the board and drive its display (the default command).")

    @Argument(help: "Serial port (/dev/ttyUSB0, /dev/ttyACM0, /dev/serial/by-id/...), or auto (the default): the only board plugged in.")
    var port: String?

    @Option(help: ArgumentHelp("Save the raw bytes with host times, for `tiltserial replay`.", valueName: "FILE"))
    var record: String?

    @OptionGroup var settings: SettingsOptions
    @OptionGroup var output: OutputOptions

    func execute(_ context: CommandContext) throws(Failure) {
        let resolved = try settings.resolve()
        let logger = context.console.logger()
        let path: String
        if let port, port != "auto" { path = port } else { path = try PortPicker.pick { logger.info("\($0)") } }
        let art = try HostRunner.loadArt()
        let out = try RunOutput(console: context.console, output: output, port: path, renderer: art.renderer)
        let runner = try HostRunner(
            options: HostRunOptions(port: path, settings: resolved, recordPath: record), sinks: out.sinks, art: art)
        if context.handleSignals { StopSignals.install(context.stop) }
        defer { if context.handleSignals { StopSignals.restore() } }
        out.view?.start()
        let summary: HostSummary
        do {
            summary = try runner.run(stop: context.stop)
        } catch {
            out.finish()
            throw error
        }
        out.finish()
        context.console.writeErr("tiltserial: stopped: \(summary.line)\n")
    }
}
