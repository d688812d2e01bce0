/// Where tiltserial keeps its files, after the XDG Base Directory
/// specification: from `XDG_CONFIG_HOME` / `XDG_STATE_HOME`, else from `HOME`.
/// Pure: the command passes the environment in (tests pass their own).
public struct ConfigPaths: Sendable, Equatable {
    /// The default config file, which `calibrate` writes and `run` and
    /// `replay` read: `$XDG_CONFIG_HOME/tiltserial/config.json`, else
    /// `~/.config/tiltserial/config.json`; nil when neither variable names an
    /// absolute folder.
    public let configFile: String?
    /// The file whose existence says the no-calibration notice was shown:
    /// `$XDG_STATE_HOME/tiltserial/calibration-notice-shown`, else under `~/.local/state`.
    public let noticeMarker: String?

    /// The environment variables it reads.
    public static let variables = ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME"]

    /// The paths for `environment` (the process's, or a test's); a variable that is empty or not an absolute path counts as unset.
    public init(environment: [String: String]) {
        // The specification: an empty or relative value is ignored.
        func folder(_ name: String) -> String? {
            guard let value = environment[name], value.hasPrefix("/") else { return nil }
            var trimmed = Substring(value)
            while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
        let home = folder("HOME")
        let config = folder("XDG_CONFIG_HOME") ?? home.map { Self.join($0, ".config") }
        let state = folder("XDG_STATE_HOME") ?? home.map { Self.join($0, ".local/state") }
        configFile = config.map { Self.join($0, "tiltserial/config.json") }
        noticeMarker = state.map { Self.join($0, "tiltserial/calibration-notice-shown") }
    }

    private static func join(_ folder: String, _ rest: String) -> String {
        folder.hasSuffix("/") ? folder + rest : folder + "/" + rest
    }

    /// The folder holding `path` ("/a/b/c.json" → "/a/b").
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
