import TiltPipeline

extension HostSummary {
    /// The one-line summary printed on exit.
    public var line: String {
        let seconds = Double(durationMicros) / 1_000_000
        let tenths = (seconds * 10).rounded() / 10
        let c = counters
        let received = c.decoder.framesDecoded + c.text.samples
        let frames = received == 0 ? c.samples : received  // CSV replays: samples
        return "\(tenths) s, \(frames) frames, \(c.lostFrames) lost, \(c.errors) errors, \(c.ticks) ticks, \(c.fires) fires"
    }
}
