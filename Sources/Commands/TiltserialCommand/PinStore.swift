import SerialIO
import SystemPackage
import TiltAssets
import TiltExitStatus
import TiltPhysics
import TiltPipeline

/// Where the pins live between runs (`--pins FILE`, by default beside the
/// config file) and how they are read and written: a missing file is no pins;
/// a bad one is one line naming the file, line and column (exit code 18); a
/// save writes a temporary file in the same folder, syncs it and renames it
/// over the old one, so a crash leaves either the old list or the new one.
struct PinStore {
    /// Larger files are refused before reading: 32 pins take under 2 KB.
    static let maxBytes = 64 * 1024

    let path: String
    /// The drawer's item names (the file names items, the wire numbers them).
    let items: [String]
    /// Named with `--pins`, not the default file: the commands a message
    /// advises name it too, or they would edit the default one.
    let named: Bool

    init(path: String, items: [String] = TiltAssets.itemNames, named: Bool = false) {
        self.path = path
        self.items = items
        self.named = named
    }

    /// `tiltserial pins WORDS` as a message gives it: with `--pins FILE` when the file was named.
    func command(_ words: String) -> String {
        "tiltserial pins \(words)" + (named ? " --pins " + ShellText.quoted(path) : "")
    }

    /// What a missing file means: none saved yet, or for a file named with
    /// `--pins`, perhaps a mistyped name ("no pins in FILE" hid that).
    var missingFileNote: String {
        named ? "no pins file at \(path): nothing was saved there (check the name; a run with --pins \(ShellText.quoted(path)) makes it)"
            : "no pins yet (a run saves them in \(path))"
    }

    /// Beside the default config file: $XDG_CONFIG_HOME/tiltserial/pins.json,
    /// else ~/.config/tiltserial/pins.json; nil when `paths` has no config folder.
    static func defaultPath(_ paths: ConfigPaths) -> String? {
        paths.configFile.map { ConfigPaths.folder(of: $0) + "/pins.json" }
    }

    /// The pins in the file, oldest first; none when it does not exist.
    /// - Parameter bounded: refuse more than the board keeps (`PinBoard.capacity`).
    func load(bounded: Bool = true) throws(Failure) -> [Pin] {
        guard let bytes = try contents() else { return [] }
        let pins = try parse(bytes)
        if bounded && pins.count > PinBoard.capacity {
            throw failure(.badFile, "holds \(pins.count) pins; the board keeps at most \(PinBoard.capacity): remove some with `\(command("remove N"))`")
        }
        return pins
    }

    /// The pins in `bytes` with the drawer's item names, or the file's refusal:
    /// where it goes wrong and the fix.
    private func parse(_ bytes: [UInt8]) throws(Failure) -> [Pin] {
        do {
            return try PinsFile.parse(bytes, items: items)
        } catch {
            // `pins clear` overwrites only a file with a pins file's shape: advise it only then;
            // pins whose items the drawer lacks can be removed one by one.
            var fix = PinsFile.shapeProblem(bytes) == nil ? "start afresh with `\(command("clear"))`" : "delete it to start afresh"
            if let (all, _) = try? PinsFile.parseAnyItems(bytes, items: items) {
                let foreign = all.indices.filter { all[$0].item >= items.count }.map { String($0 + 1) }
                fix = "remove \(foreign.count == 1 ? "that pin" : "those pins") with `\(command("remove " + foreign.joined(separator: " ")))`, or " + fix
            }
            throw failure(.badFile, "line \(error.line), column \(error.column): \(error.message); fix it, or \(fix)")
        }
    }

    /// For `pins list` and `pins remove`: the pins whatever their item names,
    /// and this store with the names the drawer lacks added, so a save keeps
    /// them (a run refuses such a file: its drawer cannot show them); `found`
    /// is false when there is no file.
    func loadForEditing() throws(Failure) -> (pins: [Pin], store: PinStore, found: Bool) {
        guard let bytes = try contents() else { return ([], self, false) }
        do {
            let (pins, names) = try PinsFile.parseAnyItems(bytes, items: items)
            return (pins, PinStore(path: path, items: names, named: named), true)
        } catch {
            _ = try parse(bytes)  // the same error, in the same words as a run's
            throw failure(.badFile, "line \(error.line), column \(error.column): \(error.message)")
        }
    }

    /// For `pins clear`: how many pins the file holds (any item names), nil
    /// when there is no file. A file without a pins file's shape is refused:
    /// clear overwrites nothing else (a `--pins` that names the config file).
    func countForClearing() throws(Failure) -> Int? {
        guard let bytes = try contents() else { return nil }
        if let problem = PinsFile.shapeProblem(bytes) {
            throw failure(.badFile, "line \(problem.line), column \(problem.column): \(problem.message); not a pins file, so clear leaves it alone: check --pins, or delete the file")
        }
        return (try? PinsFile.parse(bytes, items: items).count) ?? PinsFile.count(bytes)
    }

    /// The file's bytes; nil when it does not exist.
    private func contents() throws(Failure) -> [UInt8]? {
        let file: ReadOnlyFile
        do {
            file = try ReadOnlyFile(path, noControllingTerminal: true)
        } catch {
            if error == .noSuchFileOrDirectory || error == .notDirectory { return nil }  // no such file can be there
            throw failure(.badFile, "cannot open the pins file (\(error)); check the path or pass another --pins")
        }
        if let info = file.status() {
            if info.kind == .directory { throw failure(.badFile, "is a directory; name a file for --pins") }
            if info.kind == .regular, info.size > Self.maxBytes {
                throw failure(.badFile, "\(info.size) bytes is too large for a pins file (at most \(Self.maxBytes)); fix it, or delete it to start afresh")
            }
        }
        var bytes = [UInt8](repeating: 0, count: Self.maxBytes + 1)
        let (count, error) = bytes.withUnsafeMutableBytes { file.read(into: $0) }
        if let error { throw failure(.badFile, "cannot read the pins file (\(error)); check the path") }
        guard count <= Self.maxBytes else { throw failure(.badFile, "more than \(Self.maxBytes) bytes is too large for a pins file; fix it, or delete it to start afresh") }
        return Array(bytes[..<count])
    }

    /// Writes `pins` atomically (the folder of the default path is created).
    func save(_ pins: [Pin]) throws(Failure) {
        // The rename below would replace a file its owner made read-only (even as another user).
        if case .success(let info) = FileStatus.of(path), info.kind == .regular, info.permissions & 0o222 == 0 {
            throw failure(.ioError, "is read-only; make it writable (chmod u+w) to change its pins, or pass another --pins")
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        try makeFolder(folder)
        let text = Array(PinsFile.format(pins, items: items).utf8)
        if case .failure(let f) = AtomicFile.replace(path, with: text) {
            throw f.step == .createBeside
                ? failure(.ioError, "cannot create a file beside it (\(f.reason)); check the folder's permissions")
                : failure(.ioError, "cannot save the pins (\(f.reason)); check the disk and the folder's permissions")
        }
    }

    /// Creates `folder` and its parents when missing (0755 less the umask).
    private func makeFolder(_ folder: String) throws(Failure) {
        if folder.isEmpty || FileStatus.exists(folder) { return }
        if let slash = folder.lastIndex(of: "/"), slash != folder.startIndex { try makeFolder(String(folder[..<slash])) }
        if let error = FileSystem.makeFolder(folder, permissions: 0o755) {
            throw failure(.ioError, "cannot create the folder \(folder) (\(error)); create it or pass another --pins")
        }
    }

    private func failure(_ code: ExitStatus, _ message: String) -> Failure {
        Failure(code, "\(path): \(message)")
    }
}
