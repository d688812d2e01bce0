import TiltPipeline
import TiltCore

extension HostSummary {
    /// The one-line summary printed on exit, for people (`ForPeople`): exact
    /// counts, the duration rounded.
    public var line: String {
        let c = counters
        let received = c.decoder.framesDecoded + c.text.samples
        let frames = received == 0 ? c.samples : received  // CSV replays: samples
        let unknown = c.decoder.unknownTypes
        return "\(DurationText.span(micros: durationMicros)), \(ForPeople.count(frames, "frame")), \(c.lostFrames) lost, "
            + "\(ForPeople.count(c.errors, "error")), \(ForPeople.count(c.ticks, "tick")), \(ForPeople.count(c.fires, "fire"))"
            + (unknown == 0 ? "" : ", \(ForPeople.count(unknown, "frame")) of a type this tiltserial does not know skipped (newer firmware?)")
    }
}
