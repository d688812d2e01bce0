import Foundation
import TiltCore

/// A Wokwi project's wokwi.toml, as far as tiltsim uses it: `[wokwi]`'s
/// version, firmware and elf. Keys we do not model (rfc2217ServerPort,
/// gdbServerPort, vcdFile, net forwards…) are kept as notices, one line each;
/// `[[chip]]` (custom chips, WebAssembly we cannot run) is refused. Pure:
/// reads text, knows no files.
struct WokwiConfig: Equatable {
    /// The firmware to run (.hex or .elf), relative to the project folder.
    var firmware: String
    /// The ELF beside it (symbols for a debugger in Wokwi); tiltsim runs `firmware`.
    var elf: String?
    /// One line for each key tiltsim reads but does not act on.
    var notices: [String] = []

    /// The keys of `[wokwi]` tiltsim acts on.
    static let modelledKeys = ["version", "firmware", "elf"]

    /// Reads the TOML subset wokwi.toml files use: `[table]` and `[[array]]`
    /// headers, `key = value` with strings, numbers, booleans and one-line
    /// arrays or inline tables, `#` comments. `file` names the file in messages.
    static func parse(_ text: String, file: String) -> Result<WokwiConfig, WokwiProblem> {
        var table = ""
        var wokwi: [String: String] = [:]
        var lineOf: [String: Int] = [:]  // [wokwi]'s keys: TOML forbids one twice (wokwi-cli's reader refuses it)
        var notices: [String] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            let at = "\(file):\(index + 1): "
            if line.isEmpty { continue }
            if line.hasPrefix("[[") {
                let name = line.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
                if name == "chip" {
                    return .failure(WokwiProblem(at + "[[chip]] custom chips are not supported by tiltsim (they run WebAssembly in Wokwi's cloud); remove the chip from the project or use wokwi-cli"))
                }
                table = name
                notices.append(at + "[[\(name)]] is not modelled by tiltsim: ignored")
                continue
            }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { return .failure(WokwiProblem(at + "a table header ends with ]: [wokwi]")) }
                table = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                if table != "wokwi" { notices.append(at + "[\(table)] is not modelled by tiltsim: ignored") }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                return .failure(WokwiProblem(at + "expected key = value, e.g. firmware = 'build/sketch.hex'"))
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard table == "wokwi" else { continue }
            if let first = lineOf[key] {
                return .failure(WokwiProblem(at + "key \(quoted(key)) appears twice in [wokwi] (first on line \(first)); keep one"))
            }
            lineOf[key] = index + 1
            if modelledKeys.contains(key) {
                wokwi[key] = value
            } else {
                notices.append(at + "\(key) is not modelled by tiltsim: ignored")
            }
        }
        guard let version = wokwi["version"] else {
            return .failure(WokwiProblem("\(file): no [wokwi] version; add version = 1 under [wokwi]"))
        }
        guard version == "1" else { return .failure(WokwiProblem("\(file): unsupported wokwi.toml version \(version); use version = 1")) }
        guard let firmwareValue = wokwi["firmware"] else {
            return .failure(WokwiProblem("\(file): no firmware under [wokwi]; add firmware = 'path/to/sketch.hex' (or pass --elf)"))
        }
        guard let firmware = string(firmwareValue) else {
            return .failure(WokwiProblem("\(file): firmware must be a quoted path, e.g. firmware = 'build/sketch.hex'"))
        }
        var config = WokwiConfig(firmware: firmware, notices: notices)
        if let elfValue = wokwi["elf"] {
            guard let elf = string(elfValue) else { return .failure(WokwiProblem("\(file): elf must be a quoted path, e.g. elf = 'build/sketch.elf'")) }
            config.elf = elf
        }
        return .success(config)
    }

    /// A TOML string ('literal' or "basic" with the common escapes); nil if `value` is not one.
    private static func string(_ value: String) -> String? {
        guard value.count >= 2, let quote = value.first, quote == "'" || quote == "\"", value.last == quote else { return nil }
        let body = String(value.dropFirst().dropLast())
        guard quote == "\"" else { return body }
        return body.replacingOccurrences(of: "\\\\", with: "\u{0}").replacingOccurrences(of: "\\\"", with: "\"")
            .replacingOccurrences(of: "\u{0}", with: "\\")
    }

    /// The line without a `#` comment (a `#` inside quotes stays).
    private static func stripComment(_ line: String) -> String {
        var quote: Character?
        for index in line.indices {
            let c = line[index]
            if let open = quote {
                if c == open { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "#" {
                return String(line[..<index])
            }
        }
        return line
    }
}

/// Why a Wokwi project cannot run: one line naming the file and the fix.
struct WokwiProblem: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
