// `swift run settings-codegen [ROOT]`: writes what the settings table makes,
// Sources/Commands/TiltserialCommand/SettingsOptions.swift and docs/usage.md's settings
// table, under ROOT (default: the current folder, the package root).
// Tests/TiltserialTests/GeneratedFilesTests.swift fails while either is stale.
#if canImport(Glibc)
import Glibc
#endif
import TiltserialSettings

func fail(_ message: String) -> Never {
    let line = Array("settings-codegen: \(message)\n".utf8)
    _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func read(_ path: String) -> String {
    guard let file = fopen(path, "rb") else { fail("cannot read \(path); run it from the package root or pass the root") }
    return read(file)
}

func read(_ file: UnsafeMutablePointer<FILE>) -> String {
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n == 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Writes `text` unless the file already holds it (so builds see no change).
func write(_ path: String, _ text: String) {
    if let old = fopen(path, "rb"), read(old) == text { return print("\(path): up to date") }
    guard let file = fopen(path, "wb") else { fail("cannot write \(path)") }
    let bytes = Array(text.utf8)
    guard fwrite(bytes, 1, bytes.count, file) == bytes.count, fclose(file) == 0 else { fail("cannot write \(path)") }
    print("\(path): written")
}

let root = CommandLine.arguments.dropFirst().first ?? "."
write(root + "/Sources/Commands/TiltserialCommand/SettingsOptions.swift", SettingSpec.optionsSource)
let usagePath = root + "/docs/usage.md"
guard let usage = SettingSpec.replacingTable(in: read(usagePath)) else {
    fail("\(usagePath) lacks the lines around the settings table:\n\(SettingSpec.tableStart)\n...\n\(SettingSpec.tableEnd)")
}
write(usagePath, usage)
