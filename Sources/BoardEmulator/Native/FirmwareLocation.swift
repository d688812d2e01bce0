import Foundation

/// Where `--engine avr` finds the firmware when no `--firmware` is given, in
/// this order (docs/emulator.md):
/// 1. In a source tree (the current directory has `Hardware/Makefile` or the
///    built ELF): `Hardware/build/tiltserial.elf`, built with `make -C
///    Hardware` when missing.
/// 2. Installed: `../share/tiltserial/tiltserial.elf` from the running
///    executable's folder, where `make install` puts it
///    (`$PREFIX/bin/tiltsim` → `$PREFIX/share/tiltserial/tiltserial.elf`).
///    Relative to the executable rather than a prefix compiled in, so a
///    `DESTDIR` staging copy or a moved tree finds its own firmware.
public enum FirmwareLocation {
    /// What `make -C Hardware` builds, relative to the source tree.
    public static let sourceTree = "Hardware/build/tiltserial.elf"
    /// Where `make install` puts the firmware, relative to the tools' folder.
    public static let besideInstalledTools = "../share/tiltserial/tiltserial.elf"

    /// The firmware to run: the source tree's (existing or to be built) when
    /// the current directory is one, else the installed one if it exists,
    /// else the source tree's path (missing: the caller falls back to native).
    public static func find(executable: String? = runningExecutable()) -> String {
        let files = FileManager.default
        if files.fileExists(atPath: sourceTree) || files.fileExists(atPath: "Hardware/Makefile") { return sourceTree }
        if let installed = installed(executable: executable) { return installed }
        return sourceTree
    }

    /// The installed firmware beside `executable`, if it is there.
    public static func installed(executable: String?) -> String? {
        guard let executable, let slash = executable.lastIndex(of: "/") else { return nil }
        let path = String(executable[..<slash]) + "/" + besideInstalledTools
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The running program's own path (`/proc/self/exe`), symlinks resolved.
    public static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
