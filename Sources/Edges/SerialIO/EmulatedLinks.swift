#if canImport(Glibc)
import Glibc
#endif

/// The `--link` paths of the tiltsim boards running on this machine: a pty
/// is no serial port to libserialport (it skips virtual ttys), so `list`
/// showed none of them and `tiltserial` alone said "no board found" beside a
/// running emulator. Read from /proc: each tiltsim's command line, its
/// `--link PATH` (PATH-1 … PATH-N with `--boards N`), relative to its working
/// folder, kept while the link still names a pty.
public enum EmulatedLinks {
    /// One running board: the link, the pty it names, the tiltsim's pid.
    public struct Link: Equatable, Sendable {
        /// The link, absolute.
        public let path: String
        /// The pty it names (/dev/pts/N).
        public let pty: String
        /// The tiltsim running the board.
        public let pid: Int32

        /// A link found (tests make their own).
        public init(path: String, pty: String, pid: Int32) {
            self.path = path
            self.pty = pty
            self.pid = pid
        }
    }

    /// The links, by pid then board number; `procRoot` for tests.
    public static func running(procRoot: String = "/proc") -> [Link] {
        guard let dir = opendir(procRoot) else { return [] }
        defer { closedir(dir) }
        var links: [Link] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), let cmdline = readTextFile("\(procRoot)/\(name)/cmdline", limit: 16_384) else { continue }
            let words = cmdline.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
            guard let program = words.first, program.split(separator: "/").last == "tiltsim" else { continue }
            for path in linkPaths(words) {
                let absolute = path.hasPrefix("/") ? path : FileSystem.resolved("\(procRoot)/\(name)/cwd") + "/" + path
                guard let target = FileSystem.linkTarget(absolute), target.hasPrefix("/dev/pts/") else { continue }
                links.append(Link(path: absolute, pty: target, pid: pid))
            }
        }
        return links.sorted { ($0.pid, $0.path) < ($1.pid, $1.path) }
    }

    /// `--link PATH` or `--link=PATH`, numbered when `--boards N` (N > 1) is given.
    static func linkPaths(_ words: [String]) -> [String] {
        func value(_ option: String) -> String? {
            for (i, word) in words.enumerated() {
                if word == option, i + 1 < words.count { return words[i + 1] }
                if word.hasPrefix(option + "=") { return String(word.dropFirst(option.count + 1)) }
            }
            return nil
        }
        guard let link = value("--link"), !link.isEmpty else { return [] }
        let boards = value("--boards").flatMap { Int($0) } ?? 1
        return boards > 1 ? (1...min(boards, 64)).map { "\(link)-\($0)" } : [link]
    }
}
