import SerialIO

/// The live view's signals (SerialIO's `TerminalViewSignals` with the view's
/// screen sequences): SIGWINCH redraws, SIGHUP/SIGQUIT stop, Ctrl-Z gives the
/// terminal back until `fg`, a crash restores the terminal first.
enum ViewSignals {
    /// Installs them: requests go to `wake`, the screen sequences to descriptor `screen`.
    static func install(wake: WakeUpPipe, screen: Int32) {
        TerminalViewSignals.install(wake: wake, screen: screen, leave: LiveView.leaveSequence, enter: LiveView.enterSequence)
    }

    /// Puts back the actions found at install.
    static func restore() { TerminalViewSignals.restore() }
}
