import ArgumentParser

/// `--view`: whether and how the live view draws (docs/usage.md, "The live view").
enum ViewMode: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// The largest board that fits the terminal, then the fullest sensor panel.
    case auto
    /// The fullest sensor panel first, then the largest board that fits beside it.
    case full
    /// The smallest view: the board in braille cells and the compact panel, at any size.
    case compact
    /// No view: news as log lines (as when stderr is not a terminal).
    case none
}

/// The live view's option (run and demo).
struct ViewOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Live view on a terminal: auto (fits the terminal), full (the fullest sensor panel), compact (the 80x24 view at any size), or none (log lines).",
        valueName: "auto|full|compact|none"))
    var view: ViewMode = .auto
}

/// Whether a run draws the live view: a pure decision from the mode and what
/// stderr and stdout are.
enum ViewDecision: Equatable {
    case view
    /// Log lines; `note` says why when the user may wonder (nil: nothing to say).
    case logLines(note: String?)

    /// - Parameters:
    ///   - errIsTerminal: stderr is a terminal (the view draws there).
    ///   - jsonToSameTerminal: `--json` and stdout is that same terminal.
    ///   - dumbTerminal: TERM is `dumb` or unset (no cursor movement).
    static func make(mode: ViewMode, errIsTerminal: Bool, jsonToSameTerminal: Bool, dumbTerminal: Bool) throws(Failure) -> ViewDecision {
        switch mode {
        case .none:
            return .logLines(note: nil)
        case .auto:
            guard errIsTerminal, !dumbTerminal else { return .logLines(note: nil) }
            if jsonToSameTerminal {
                return .logLines(note: "--json goes to this terminal, so no live view (it would mix with the JSON); send the JSON elsewhere (--json > ticks.jsonl) to see both")
            }
            return .view
        case .full, .compact:
            guard errIsTerminal else {
                return .logLines(note: "--view \(mode.rawValue): stderr is not a terminal; writing log lines instead")
            }
            if jsonToSameTerminal {
                throw Failure(.badSettings, "--view \(mode.rawValue) with --json: both would write to this terminal; send the JSON elsewhere (--json > ticks.jsonl) or leave out --view")
            }
            return .view
        }
    }
}
