/// Every exit status `tiltserial` and `tiltsim` end with: one scheme for both
/// tools, so a script or a CI job reads a code the same way whichever tool
/// returned it. docs/usage.md ("Exit codes") lists each code, the tools that
/// return it and what to do; `UsageDocTests` keeps that table and this
/// enum in step.
///
/// 1 and 2 are left to the shell and the runtime (an uncaught error, a shell
/// builtin's misuse), 64–78 to sysexits.h, 126 and above to the shell and
/// signals, so a code from this table never means anything else.
public enum ExitStatus: Int32, CaseIterable, Sendable {
    /// Done: the run ended as asked (Ctrl-C, `--duration`, the end of a replay,
    /// `tiltsim run` with every expectation met).
    case success = 0
    /// Nothing at the port's path, or a link whose target is gone.
    case noSuchPort = 10
    /// The device exists but this user may not open it.
    case permissionDenied = 11
    /// The board speaks another protocol version (its HELLO).
    case protocolMismatch = 12
    /// Another program holds the port.
    case portBusy = 13
    /// The path is not a terminal device.
    case notASerialDevice = 14
    /// Nothing valid arrived from the port in time.
    case noValidFrames = 15
    /// No port given, and none or several boards are plugged in.
    case noBoardFound = 16
    /// The device went away (unplugged with `--no-reconnect`).
    case deviceGone = 17
    /// A file named on the command line cannot be used: missing, unreadable,
    /// malformed, or an output file that cannot be created there.
    case badFile = 18
    /// Any other failure of the operating system (a stalled write, a poll
    /// error, no pipe or pseudo-terminal to be had, a file that cannot be saved).
    case ioError = 19
    /// The emulated board could not start or stopped (`tiltserial demo`, `tiltsim`).
    case emulatorFailed = 20
    /// A bad option, value or config file; any usage error.
    case badSettings = 21
    /// A hook (`--on-pull CMD`) cannot run.
    case badHook = 22
    /// `tiltserial calibrate` could not finish; nothing was written.
    case calibrationFailed = 23
    /// `tiltsim run`: an expectation was missed (a screen differed, or the
    /// sketch halted first), or the sketch crashed.
    case expectationMissed = 24
    /// `tiltsim run`: a `--fail-serial` pattern matched.
    case failureText = 25
    /// `tiltsim run`: the simulated time ran out while waiting.
    case timedOut = 26
    /// The firmware (sketch) file is missing, not an AVR ELF nor Intel HEX,
    /// damaged or too big (`tiltsim`, `tiltsim run`).
    case badFirmware = 27
    /// `tiltserial setup` stored no display choice: the board's firmware does
    /// not know DISPLAY, no kind showed a whole border, or the person stopped.
    case setupFailed = 28
}
