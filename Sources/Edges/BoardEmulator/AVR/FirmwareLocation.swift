import Foundation

/// Where `--engine avr` finds the firmware when no `--firmware` is given, in
/// this order (docs/emulator.md, "Finding the firmware"), always from the
/// running executable and never from the working directory:
/// 1. Installed: `../share/tiltserial/tiltserial.elf` (another board's:
///    `../share/tiltserial/BOARD/tiltserial.elf`) from the executable's
///    folder, where `make install` puts every board's build (`$PREFIX/bin/tiltsim`
///    → `$PREFIX/share/tiltserial/tiltserial.elf`). Relative to the executable
///    rather than a prefix compiled in, so a `DESTDIR` staging copy or a moved
///    tree finds its own firmware.
/// 2. A source tree: the executable lives under the package root (`swift
///    build` puts it in `.build/<triple>/debug`), the first folder above it
///    that holds `Package.swift` and `Hardware/Makefile`; there,
///    `Hardware/build/tiltserial.elf`, which `make -C Hardware` builds (`make
///    demo` and `make test` do it first). Nothing here runs make.
public enum FirmwareLocation {
    /// What `make -C Hardware` builds, relative to the package root.
    public static let inSourceTree = "Hardware/build/tiltserial.elf"
    /// Where `make install` puts the Uno's firmware, relative to the tools' folder.
    public static let besideInstalledTools = "../share/tiltserial/tiltserial.elf"

    /// Where `make install` puts a board's firmware, relative to the tools'
    /// folder (share/tiltserial for the Uno, share/tiltserial/BOARD for the
    /// others, as in Hardware/build).
    public static func besideInstalledTools(board: String) -> String {
        board == "uno" ? besideInstalledTools : "../share/tiltserial/\(board)/tiltserial.elf"
    }

    /// What `make -C Hardware BOARD=board` builds, relative to the package root
    /// (build/ for the Uno, build/BOARD for the others, as Hardware/boards.mk says).
    public static func inSourceTree(board: String) -> String {
        board == "uno" ? inSourceTree : "Hardware/build/\(board)/tiltserial.elf"
    }

    /// The first of `candidates(executable:board:)` that exists, or nil.
    public static func find(executable: String? = runningExecutable(), board: String = "uno") -> String? {
        candidates(executable: executable, board: board).first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Every path the search tries, in order (for a message naming them when
    /// none exists): the installed build for `board`, then the source tree's.
    public static func candidates(executable: String?, board: String = "uno") -> [String] {
        guard let executable, let folder = folder(of: executable) else { return [] }
        var paths = [folder + "/" + besideInstalledTools(board: board)]
        if let root = packageRoot(above: folder) { paths.append(root + "/" + inSourceTree(board: board)) }
        return paths
    }

    /// The installed firmware beside `executable`, if it is there.
    public static func installed(executable: String?) -> String? {
        guard let executable, let folder = folder(of: executable) else { return nil }
        let path = folder + "/" + besideInstalledTools
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The nearest folder at or above `folder` holding `Package.swift` and
    /// `Hardware/Makefile` (this package's root), if any.
    public static func packageRoot(above folder: String) -> String? {
        var path = folder
        while true {
            let files = FileManager.default
            if files.fileExists(atPath: path + "/Package.swift") && files.fileExists(atPath: path + "/Hardware/Makefile") {
                return path
            }
            guard let parent = self.folder(of: path) else { return nil }
            path = parent
        }
    }

    /// The running program's own path (`/proc/self/exe`), symlinks resolved.
    public static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` without its last component; nil for a relative name or `/` itself.
    private static func folder(of path: String) -> String? {
        guard path.count > 1, let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
