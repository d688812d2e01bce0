import ArgumentParser
import SerialIO
import TiltAssets
import TiltCore
import TiltDisplay
import TiltPipeline

/// `tiltserial replay FILE`: the pipeline offline, at full speed.
struct Replay: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-run a --record file or a CSV of samples (t_us,ax,ay,az[,gx,gy,gz]) through the physics.",
        discussion: """
            Takes run's settings. The serial link's options (--baud, --dtr, --no-dtr, \
            --hello-timeout, --reconnect, --no-reconnect) are listed with them but refused \
            (exit 21): a file has no link.
            """)

    @Argument(help: "A recording made with --record, or a .csv of samples.", completion: .file(extensions: ["tiltrec", "csv"]))
    var file: String

    @Option(help: ArgumentHelp("Write the board's final screen as a PNG.", valueName: "FILE.png"), completion: .file(extensions: ["png"]))
    var render: String?

    @OptionGroup var settings: SettingsOptions
    @OptionGroup var output: OutputOptions

    /// Options that set up a serial link: a file has none, so they would do nothing.
    static let linkOptions: Set<String> = ["baud", "dtr", "hello-timeout", "reconnect"]

    func execute(_ context: CommandContext) throws(Failure) {
        if let (name, _) = settings.given.first(where: { Self.linkOptions.contains($0.0) }) {
            let spelled = name == "dtr" || name == "reconnect" ? "--\(name) (or --no-\(name))" : "--\(name)"
            throw Failure(.badSettings, "\(spelled) sets up a serial link and replay reads a file, where it does nothing: leave it out")
        }
        let (resolved, config) = try settings.resolve(defaultFile: context.paths.configFile)
        if case .defaultFile(let file) = config { context.console.logger().info("settings from \(file)") }
        if let render { try PNGFile.checkWritable(render, failing: .badFile) }
        // Ctrl-C, SIGTERM, a hang-up: the summary, and running hooks ended as at the end (they killed the replay and left them running).
        if context.handleSignals { StopSignals.install(context.stop) }
        defer { if context.handleSignals { StopSignals.restore() } }
        guard let input = try InputFile(path: file, waiting: { context.console.logger().info("\($0)") }) else {
            context.console.writeErr("tiltserial: stopped before \(file) was opened\n")
            return
        }
        let art = try HostRunner.loadArt()
        var driver = Self.driver(try makeHostSession(settings: resolved, art: art))
        let out = try RunOutput(console: context.console, output: output, port: file, renderer: nil)
        out.replaying = true
        defer { out.finish() }
        let file = self.file
        // A file has no port to write, open or close, and no view to refresh.
        let perform: (HostAction) -> Void = { action in
            switch action {
            case .event(let event): out.event(event)
            case .runHook(let request): out.hook(request)
            case .news(.waitingForBoard): break  // a file has no board to wait for
            case .news(let news): out.news(news)
            case .write, .refresh, .openPort, .closePort, .reportOtherOpeners, .finish: break
            }
        }
        var duration: UInt64 = 0
        // A recording's host times never go back (a monotonic clock wrote them);
        // a damaged one's are held at the latest, and counted for one warning.
        var latestHost: HostTime?
        var backwardRecords = 0

        // The file is read in fixed blocks and fed to the streaming readers: flat memory whatever its size.
        var format = ReplayFormat.unknown
        var done = false
        var recording = Recording.Reader()
        var csv = SampleCSVReader()
        var truncatedBytes = 0
        var opened = false
        var stoppedEarly = false
        var recalibrations = 0
        // A stop signal to this replay (the flag is the process's: in-process runs install none).
        let signalled = { context.handleSignals && SignalBytes.stopRequested }
        do throws(Failure) {
            while !done {
                // stdout gone (`| head`) or failing (a full disk) wakes the stop pipe: what follows would be lost.
                if context.stop.wait(timeout: .zero) {
                    stoppedEarly = true
                    driver.inputEnded()
                    break
                }
                try input.next(stopped: signalled) { block throws(Failure) in
                    if block.isEmpty && signalled() { return }  // a stop, not the end: the loop's check ends it
                    if format == .unknown {
                        format = ReplayFormat.detect(head: block, name: file)
                        if format == .notUTF8Text {
                            throw Failure(.badFile, "\(file): UTF-16 text, not UTF-8; a sample CSV is UTF-8 text: save it as \"CSV UTF-8\" (not \"Unicode text\")")
                        }
                        if format == .unknown {
                            throw Failure(.badFile, "\(file): neither a tiltserial recording (--record) nor a CSV of samples (t_us,ax,ay,az[,gx,gy,gz])")
                        }
                    }
                    switch format {
                    case .recording:
                        do throws(Recording.ReadError) {
                            if block.isEmpty {
                                truncatedBytes = try recording.finish()
                                driver.inputEnded()
                                done = true
                                return
                            }
                            try recording.feed(block) { original in
                                var record = original
                                if let latestHost, record.hostTime.micros < latestHost.micros {
                                    backwardRecords += 1
                                    record.hostTime = latestHost
                                }
                                latestHost = record.hostTime
                                duration = record.hostTime.micros
                                if !opened {
                                    driver.portOpened(at: record.hostTime, perform)
                                    opened = true
                                }
                                guard !driver.isFinished else { return }
                                switch record.direction {
                                case .linkRestarted: driver.linkRestarted(at: record.hostTime)
                                case .recalibrated:
                                    guard let outcome = driver.recalibrate(at: record.hostTime) else { break }
                                    recalibrations += 1
                                    if recalibrations <= Self.recalibrationLines { out.recalibrated(outcome) }
                                case .toBoard: break
                                case .fromBoard: driver.received(record.bytes, at: record.hostTime, perform)
                                }
                            }
                            if driver.isFinished { done = true }
                        } catch {
                            throw Failure(replaying: file, error)
                        }
                    case .sampleCSV:
                        do throws(SampleCSV.ParseError) {
                            if block.isEmpty {
                                try csv.finish { driver.ingest($0, perform) }
                                done = true
                            } else {
                                try csv.feed(block) { driver.ingest($0, perform) }
                            }
                        } catch {
                            throw Failure(.badFile, "\(file): \(error.description); replay takes a --record file or a sample CSV (docs/usage.md)")
                        }
                    case .notUTF8Text, .unknown:
                        break
                    }
                }
            }
        } catch {
            // A damaged record part way: what was replayed up to it, as a run says before its error.
            let counters = driver.session.counters
            if format == .sampleCSV, let span = csv.spanMicros { duration = span }  // a CSV's duration is its samples' span, as at its end
            if counters.samples > 0 || counters.decoder.framesDecoded > 0 {
                let hooks = out.hookSummary(out.finish())
                context.console.writeErr("tiltserial: stopped: \(HostSummary(durationMicros: duration, counters: counters).line)\(hooks)\n")
            }
            throw error
        }

        switch format {
        case .recording:
            if recalibrations > Self.recalibrationLines {
                out.say("\(file): \(recalibrations - Self.recalibrationLines) more c presses (rest pose) not shown, \(recalibrations) in all; "
                        + "a person presses c a few times a run: is the recording damaged?", level: .warning)
            }
            if backwardRecords > 0 {
                out.say("\(file): \(ForPeople.count(backwardRecords, "record")) went back in host time (a damaged recording); replayed at the latest time before \(backwardRecords == 1 ? "it" : "each")", level: .warning)
            }
            if truncatedBytes > 0 {
                out.say("\(file): the last \(ForPeople.count(truncatedBytes, "byte")) \(truncatedBytes == 1 ? "is" : "are") a cut-short record; replayed up to it", level: .warning)
            }
            let session = driver.session
            if let hello = session.hello, session.halted {
                throw Failure(.protocolMismatch, "\(file): recorded board speaks protocol version \(hello.protocolVersion), this tiltserial version \(HostSession.protocolVersion); replay it with a matching tiltserial")
            }
            if session.format == nil {
                throw Failure(.badFile, "\(file): the recording holds no valid frames (saw \(session.stream.seen.rawValue)); record again with the sketch from Hardware/ and the right --baud")
            }
        case .sampleCSV:
            guard let span = csv.spanMicros else {
                throw Failure(.badFile, "\(file): holds no samples; a sample CSV has lines \(SampleCSV.header) (docs/usage.md)")
            }
            duration = span
            if let hint = csv.standingTimeHint { out.say("\(file): \(hint)", level: .warning) }
        case .notUTF8Text, .unknown:
            break
        }
        let session = driver.session

        let hooks = out.hookSummary(out.finish())  // the deferred finish then has nothing left to end
        let verb = !stoppedEarly ? "replayed" : signalled() ? "stopped" : "stopped (stdout closed or failing)"
        context.console.writeErr("tiltserial: \(verb): \(HostSummary(durationMicros: duration, counters: session.counters).line)\(hooks)\n")
        // After the summary, so a disk that fills under the PNG keeps it (checked writable before the replay).
        if let render {
            var mirror = DisplayMirror(renderer: art.renderer)
            if let last = session.scene.offsets { mirror.show(last) }
            try PNGFile.write(mirror.screen, to: render, failing: .badFile)
        }
    }

    /// `c` presses said one line each; a crafted or damaged recording held
    /// 200 000 of them, a line each.
    static let recalibrationLines = 20

    /// The live run's driver, for a file: no greeting, no doze, no hello
    /// timeout (the file's end decides), the same events, hooks and news.
    static func driver(_ session: HostSession) -> HostDriver {
        var c = HostDriver.Configuration()
        c.sendHostHello = false
        c.dozeMarginMicros = nil
        c.helloTimeoutMicros = .max
        return HostDriver(session: session, configuration: c)
    }
}
