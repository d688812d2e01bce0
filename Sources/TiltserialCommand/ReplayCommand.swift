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
        let input = try InputFile(path: file)
        let art = try HostRunner.loadArt()
        var session = try makeHostSession(settings: resolved, art: art)
        let out = try RunOutput(console: context.console, output: output, port: file, renderer: nil)
        defer { out.finish() }
        let handle: (HostEvent) -> Void = { out.event($0) }
        var duration: UInt64 = 0

        // The file is read in fixed blocks and fed to the streaming readers: flat memory whatever its size.
        var format = ReplayFormat.unknown
        var done = false
        var recording = Recording.Reader()
        var csv = SampleCSVReader()
        var truncatedBytes = 0
        while !done {
            try input.next { block throws(Failure) in
                if format == .unknown {
                    format = ReplayFormat.detect(head: block, name: file)
                    if format == .unknown {
                        throw Failure(.badInputFile, "\(file): neither a tiltserial recording (--record) nor a CSV of samples (t_us,ax,ay,az[,gx,gy,gz])")
                    }
                }
                switch format {
                case .recording:
                    do throws(Recording.ReadError) {
                        if block.isEmpty {
                            truncatedBytes = try recording.finish()
                            done = true
                            return
                        }
                        try recording.feed(block) { record in
                            duration = record.hostMicros
                            guard !session.halted else { return }
                            switch record.direction {
                            case .linkRestarted: session.linkRestarted()
                            case .toBoard: break
                            case .fromBoard: session.receive(record.bytes, atHostMicros: record.hostMicros, handle)
                            }
                        }
                        if session.halted { done = true }
                    } catch {
                        throw Failure(.badInputFile, "\(file): \(error.description)")
                    }
                case .sampleCSV:
                    do throws(SampleCSV.ParseError) {
                        if block.isEmpty {
                            try csv.finish { session.ingest(sample: $0, handle) }
                            done = true
                        } else {
                            try csv.feed(block) { session.ingest(sample: $0, handle) }
                        }
                    } catch {
                        throw Failure(.badInputFile, "\(file): \(error.description); replay takes a --record file or a sample CSV (docs/usage.md)")
                    }
                case .unknown:
                    break
                }
            }
        }

        switch format {
        case .recording:
            if truncatedBytes > 0 {
                out.say("\(file): the last \(truncatedBytes) bytes are a cut-short record; replayed up to it", level: .warning)
            }
            if let hello = session.hello, session.halted {
                throw Failure(.protocolMismatch, "\(file): recorded board speaks protocol version \(hello.protocolVersion), this tiltserial version \(HostSession.protocolVersion); replay it with a matching tiltserial")
            }
            if session.format == nil {
                throw Failure(.noValidFrames, "\(file): the recording holds no valid frames (saw \(session.seen.rawValue)); record again with the sketch from Hardware/ and the right --baud")
            }
        case .sampleCSV:
            guard let first = csv.firstTimeMicros, let last = csv.lastTimeMicros else {
                throw Failure(.badInputFile, "\(file): holds no samples; a sample CSV has lines \(SampleCSV.header) (docs/usage.md)")
            }
            duration = last - first
        case .unknown:
            break
        }

        if let render {
            var mirror = DisplayMirror(renderer: art.renderer)
            if let last = session.lastOffsets { mirror.show(last) }
            let png = PNGEncoder.encode(mirror.frame, scale: 4)
            guard FileManager.default.createFile(atPath: render, contents: Data(png)) else {
                throw Failure(.badInputFile, "\(render): cannot write the PNG; check the directory and permissions")
            }
        }
        context.console.writeErr("tiltserial: replayed: \(HostSummary(durationMicros: duration, counters: session.counters).line)\n")
    }
}
