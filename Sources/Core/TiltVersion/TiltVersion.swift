/// The version of the `tiltserial` and `tiltsim` tools: the one place it is
/// written. Both commands' `--version` print it, `tiltserial` shows it beside
/// the board's firmware version when a board says HELLO, and the installed man
/// pages carry it (`make install` generates them from the built tools).
///
/// The firmware's own version is `FIRMWARE_MAJOR/MINOR/PATCH` in
/// Hardware/tiltserial/config.h (the board reports it in HELLO); the two are
/// compatible when they speak the same wire protocol version, not when their
/// numbers match.
public enum TiltVersion {
    /// Semantic version of the host tools.
    public static let number = "1.0.0"
}
