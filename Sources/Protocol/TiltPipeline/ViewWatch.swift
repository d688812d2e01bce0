import TiltCore

/// What frame sync needs from the shell's reading (`HostSession.viewWatch`):
/// a doze must not sleep through a READY or the samples that answer it.
public enum ViewWatch: Sendable, Equatable {
    /// No frame sync (recipe mode, text formats, before HELLO): ticks alone set the pace.
    case off
    /// Read every arrival: a READY is being answered, or when the next comes is unknown.
    case now
    /// The board draws back to back; its next READY should arrive about then (host time).
    case expected(HostTime)
}
