import ArgumentParser
import SerialIO
import WireProtocol

/// `tiltserial monitor [PORT]`: what the board sends, one line per text line,
/// frame or run of other bytes (as arduino-cli's monitor or miniterm, with our
/// frames decoded). The splitting and wording are `MonitorReader` and
/// `MonitorLine` (WireProtocol, pure); this is the loop around the port.
struct Monitor: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Show what the board sends: text lines as text, frames decoded one per line, other bytes in hex.",
        usage: "tiltserial monitor [<port>] [--baud <N>] [--hello] [<options>]",  // ArgumentParser's spelled every option out on one line past 80 columns
        discussion: """
            For checking a board, a sketch or the wiring: SAMPLE seq=12 t=1012000 ax=... lines for our frames, \
            any text a sketch prints as it is, anything else as HEX bytes. Lines go to stdout; Ctrl-C stops.
            """)

    @OptionGroup var portOptions: PortOptions

    @Option(name: .customLong("baud"), help: Self.help("baud"))
    var baud: String?

    @Option(name: .customLong("dtr"), help: Self.help("dtr"), completion: .list(["assert", "leave"]))
    var dtr: String?

    /// Help and placeholder from the settings table, as `run` shows them.
    static func help(_ flag: String) -> ArgumentHelp {
        let spec = SettingSpec.spec(flag: flag)
        return ArgumentHelp(spec?.optionHelp ?? "", valueName: spec?.placeholder)
    }

    @Flag(name: .customLong("no-dtr"), help: "Same as --dtr leave: don't reset the board when opening.")
    var noDTR = false

    @Flag(help: "Send HOST_HELLO after opening, so a board that the open did not reset says HELLO (with its firmware version).")
    var hello = false

    /// A line that stops arriving part way is shown after this much quiet.
    static let idle = Duration.milliseconds(200)

    func execute(_ context: CommandContext) throws(Failure) {
        let (baud, dtr) = try serialSettings()
        let logger = context.console.logger()
        let path = try portOptions.resolve { logger.info("\($0)") }
        // A native-USB board was not reset by the open: ask for its HELLO as --hello does.
        let nativeUSB = try PortPreflight.check(path: path, baud: baud)
        if let nativeUSB { logger.info("\(nativeUSB)") }
        let transport: any SerialTransport
        do { transport = try SerialPort.open(path: path, baud: baud, options: SerialOptions(dtr: dtr)) } catch {
            throw Failure(error)
        }
        defer { transport.close() }
        if context.handleSignals { StopSignals.install(context.stop) }
        defer { if context.handleSignals { StopSignals.restore() } }
        logger.info("monitor: \(path) at \(baud) baud; Ctrl-C to stop")
        if hello || nativeUSB != nil {
            var failure: SerialError?
            HostHelloFrame().encoded().withUnsafeBytes { raw in
                do throws(SerialError) { try transport.write(raw) } catch { failure = error }
            }
            if let failure { throw Failure(failure) }
        }
        try watch(transport, path: path, context: context)
    }

    /// Reads and shows until Ctrl-C (or stdout closing) or the device goes.
    func watch(_ transport: any SerialTransport, path: String, context: CommandContext) throws(Failure) {
        var reader = MonitorReader()
        var text = ""
        let show: (MonitorItem) -> Void = { item in
            text += MonitorLine.line(item)
            text += "\n"
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        defer {
            reader.flush(show)
            if !text.isEmpty { context.console.writeOut(text) }
        }
        do throws(SerialError) {
            while true {
                let timeout = reader.pendingByteCount > 0 ? Self.idle : nil
                switch try transport.wait(timeout: timeout, orWakeUp: context.stop.readEnd) {
                case .wokenUp:
                    return
                case .timedOut:
                    reader.flush(show)
                case .readable:
                    var budget = 64 * 1024  // a flood still lets Ctrl-C in
                    while budget > 0 {
                        let count = try transport.read(into: buffer)
                        if count == 0 { break }
                        budget -= count
                        reader.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), show)
                    }
                }
                if !text.isEmpty {
                    context.console.writeOut(text)
                    text.removeAll(keepingCapacity: true)
                }
            }
        } catch .deviceGone {
            if let conflict = BrlttyConflict.find() { throw Failure(.deviceGone, "\(path): device gone: " + conflict.message) }
            throw Failure(.deviceGone, "\(path): device gone (unplugged or closed); plug it in and start the monitor again")
        } catch {
            throw Failure(error)
        }
    }

    /// `--baud` and `--dtr` checked by the settings table, as for `run`.
    func serialSettings() throws(Failure) -> (baud: Int, dtr: SerialOptions.DTR) {
        var given: [(String, String)] = []
        if let baud { given.append(("baud", baud)) }
        if let dtr { given.append(("dtr", dtr)) }
        if noDTR { given.append(("dtr", "leave")) }
        do {
            var resolver = SettingsResolver()
            for (flag, text) in given { try resolver.addOption(flag: flag, text: text) }
            let settings = try resolver.resolve()
            return (settings.baud, settings.dtr)
        } catch {
            throw Failure(.badSettings, error.message)
        }
    }
}
