import ArgumentParser
import Foundation
import TiltAssets
import TiltCore
import TiltDisplay
import TiltPipeline

/// `tiltserial replay FILE`: the pipeline offline, at full speed.
struct Replay: TiltserialSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-run a --record file or a CSV of samples (t_us,ax,ay,az[,gx,gy,gz]) through the physics.")

    @Argument(help: "A recording made with --record, or a .csv of samples.")
    var file: String

    @Option(help: ArgumentHelp("Write the board's final display frame as a PNG.", valueName: "FILE.png"))
    var render: String?

    @OptionGroup var settings: SettingsOptions
    @OptionGroup var output: OutputOptions

    func execute(_ context: CommandContext) throws(Failure) {
        let resolved = try settings.resolve()
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Failure(.badInputFile, "\(file): cannot read it; check the path")
        }
        let bytes = [UInt8](data)
        let art = try HostRunner.loadArt()
        var driver = Self.driver(try makeHostSession(settings: resolved, art: art))
        let out = try RunOutput(console: context.console, output: output, port: file, renderer: nil)
        defer { out.finish() }
        let file = self.file
        let perform: (HostAction) -> Void = { action in
            switch action {
            case .event(let event): out.event(event)
            case .runHook(let request): out.hook(request)
            case .news(let news): out.status(HostStatus(news, port: file))
            case .write, .refresh, .openPort, .closePort, .reportOtherOpeners, .finish: break
            }
        }
        var duration: UInt64 = 0

        if bytes.starts(with: Recording.magic) {
            let contents: Recording.Contents
            do { contents = try Recording.read(bytes) } catch { throw Failure(.badInputFile, "\(file): \(error.description)") }
            driver.portOpened(at: contents.chunks.first?.hostMicros ?? 0, perform)
            for chunk in contents.chunks where chunk.direction != .toBoard {
                if chunk.direction == .linkRestarted {
                    driver.linkRestarted(at: chunk.hostMicros)
                    continue
                }
                bytes.withUnsafeBytes { raw in
                    driver.received(UnsafeRawBufferPointer(rebasing: raw[chunk.range]), at: chunk.hostMicros, perform)
                }
                if driver.isFinished { break }
            }
            if contents.truncatedBytes > 0 {
                out.say("\(file): the last \(contents.truncatedBytes) bytes are a cut-short record; replayed up to it", level: .warning)
            }
            duration = contents.chunks.last?.hostMicros ?? 0
            let session = driver.session
            if let hello = session.hello, session.halted {
                throw Failure(.protocolMismatch, "\(file): recorded board speaks protocol version \(hello.protocolVersion), this tiltserial version \(HostSession.protocolVersion); replay it with a matching tiltserial")
            }
            if session.format == nil {
                throw Failure(.noValidFrames, "\(file): the recording holds no valid frames (saw \(session.seen.rawValue)); record again with the sketch from Hardware/ and the right --baud")
            }
        } else if file.lowercased().hasSuffix(".csv") || looksLikeText(bytes) {
            let samples: [TimedSample]
            do { samples = try SampleCSV.parse(String(decoding: bytes, as: UTF8.self)) } catch {
                throw Failure(.badInputFile, "\(file): \(error.description); replay takes a --record file or a sample CSV (docs/usage.md)")
            }
            driver.portOpened(at: samples.first?.timeMicros ?? 0, perform)
            for s in samples { driver.ingest(s, perform) }
            if let first = samples.first, let last = samples.last { duration = last.timeMicros - first.timeMicros }
        } else {
            throw Failure(.badInputFile, "\(file): neither a tiltserial recording (--record) nor a CSV of samples (t_us,ax,ay,az[,gx,gy,gz])")
        }
        let session = driver.session

        if let render {
            var mirror = DisplayMirror(renderer: art.renderer)
            if let last = session.lastOffsets { mirror.show(last) }
            let png = PNGEncoder.encode(mirror.frame, scale: 4)
            guard FileManager.default.createFile(atPath: render, contents: Data(png)) else {
                throw Failure(.badInputFile, "\(render): cannot write the PNG; check the directory and permissions")
            }
        }
        let hooks = out.hookSummary(out.finish())  // the deferred finish then has nothing left to end
        context.console.writeErr("tiltserial: replayed: \(HostSummary(durationMicros: duration, counters: session.counters).line)\(hooks)\n")
    }

    /// The live run's driver, for a file: no greeting, no doze, no hello
    /// timeout (the file's end decides), the same events, hooks and news.
    static func driver(_ session: HostSession) -> HostDriver {
        var c = HostDriver.Configuration()
        c.sendHostHello = false
        c.dozeMarginMicros = nil
        c.helloTimeoutMicros = .max
        return HostDriver(session: session, configuration: c)
    }

    func looksLikeText(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(512)
        return !head.isEmpty && head.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }
    }
}
