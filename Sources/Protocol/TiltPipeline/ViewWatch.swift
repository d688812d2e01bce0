import TiltCore

/// What frame sync needs from the shell's reading (`HostSession.viewWatch`):
/// a doze must not sleep through a READY, nor past the last moment a fresher
/// view can still reach the board before the latch READY announced.
public enum ViewWatch: Sendable, Equatable {
    /// No frame sync (recipe mode, text formats, an older board): ticks alone set the pace.
    case off
    /// Read every arrival: a READY waits for the first sample that moves the
    /// map, or when the next READY comes is not known.
    case now
    /// The board draws back to back; its next READY should arrive about then (host time).
    case expected(HostTime)
    /// A READY was answered; the board takes its next view at this time (the
    /// physics' timeline, like `HostSession.nextTick`), and the READY after it
    /// should arrive about `then`, if the cadence is known.
    case latch(BoardTime, then: HostTime?)
}
