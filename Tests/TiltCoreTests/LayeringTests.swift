import Foundation
import Testing

/// The import rules of docs/architecture.md, checked on the sources of every
/// target: each module imports only what its layer may (the table below, which
/// the document shows), and declares in Package.swift every package module it
/// imports. Every import form counts: attributes (`@testable`, `@_exported`,
/// `@preconcurrency`, `@_implementationOnly`), access levels (`public import`),
/// single declarations (`import struct M.T`), and `#if canImport(M)`.
@Suite struct LayeringTests {
    /// Modules every non-core target may import without declaring them: the C library of each platform.
    static let platform: Set<String> = ["Glibc", "Musl", "Darwin", "Android", "Bionic", "WASILibc", "ucrt", "CRT", "WinSDK"]
    /// Modules that come with the toolchain (imported without a Package.swift dependency).
    static let toolchain: Set<String> = platform.union(["Swift", "Foundation", "FoundationEssentials", "Dispatch", "Synchronization", "Testing", "XCTest"])

    /// Who may import whom: target, layer, the modules it may import, and whether
    /// it may import the platform's C library. The commands never do: their
    /// syscalls go through SerialIO's typed wrappers (`commandsCallNoSyscallDirectly`). The layer is also the target's
    /// folder: `Sources/<Layer>/<target folder>` (Core, Protocol, Edges, Commands,
    /// Tools). The pure core and protocol import no platform module, except
    /// TiltMotion, which needs the C library's trigonometry (sin, cos, atan2).
    static let rules: [(target: String, layer: String, may: [String], platform: Bool)] = [
        ("TiltCore", "core", [], false),
        ("TiltPhysics", "core", ["TiltCore"], false),
        ("TiltDisplay", "core", ["TiltCore"], false),
        ("TiltAssets", "core", ["TiltCore", "TiltDisplay"], false),
        ("TiltMotion", "core", ["TiltCore"], true),
        ("TiltVersion", "core", [], false),
        ("TiltExitStatus", "core", [], false),
        ("WireProtocol", "protocol", ["TiltCore"], false),
        ("TiltPipeline", "protocol", ["TiltCore", "WireProtocol", "TiltPhysics", "TiltDisplay"], false),
        ("SerialIO", "edges", ["TiltCore", "CLibSerialPort", "CSerialShims", "SystemPackage", "Synchronization"], true),
        ("BoardEmulator", "edges", [
            "TiltMotion", "TiltCore", "WireProtocol", "TiltDisplay", "TiltAssets", "SerialIO", "CSerialShims", "CSimAVR",
            "CBoardParts", "FirmwareCore", "SystemPackage", "Foundation", "Synchronization",
        ], true),
        ("TiltserialSettings", "commands", ["TiltCore", "TiltPhysics"], false),
        // No emulator and no Foundation in the host: `demo` starts tiltsim; start-up stays fast.
        ("TiltserialCommand", "commands", [
            "TiltserialSettings", "TiltCore", "WireProtocol", "TiltPhysics", "TiltDisplay", "TiltPipeline", "TiltAssets",
            "TiltMotion", "SerialIO", "ArgumentParser", "Logging", "SystemPackage", "Synchronization", "TiltVersion", "TiltExitStatus",
        ], false),
        ("TiltsimCommand", "commands", [
            "BoardEmulator", "TiltMotion", "SerialIO", "TiltAssets", "TiltDisplay", "TiltCore", "WireProtocol", "CLibPNG", "ArgumentParser",
            "Logging", "Foundation", "Synchronization", "Yams", "TiltVersion", "TiltExitStatus",
        ], false),
        ("tiltserial", "commands", ["TiltserialCommand"], false),
        ("tiltsim", "commands", ["TiltsimCommand"], false),
        ("physics-plots", "tools", ["TiltPhysics", "TiltCore", "TiltMotion", "Foundation"], true),
        ("settings-codegen", "tools", ["TiltserialSettings"], true),
        // Test-only code several test targets share (the pty peer, the reference screen): in Tests/, linked by tests only.
        ("TestSupport", "tests", ["SerialIO", "WireProtocol", "TiltCore", "TiltDisplay", "SystemPackage", "Foundation"], true),
    ]

    /// The C targets under Sources/ and their layer's folder (they import only C headers).
    static let cTargets: [(target: String, layer: String)] = [
        ("CLibSerialPort", "edges"), ("CSerialShims", "edges"), ("CSimAVR", "edges"), ("CBoardParts", "edges"), ("CLibPNG", "edges"),
    ]

    /// `Sources/Core` for "core", and so on; `Tests` for "tests" (test support, never linked by a product).
    static func folder(ofLayer layer: String) -> String {
        layer == "tests" ? "Tests" : "Sources/" + layer.prefix(1).uppercased() + layer.dropFirst()
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    // MARK: - The checks

    @Test(arguments: rules.map(\.target))
    func eachModuleImportsOnlyWhatItsLayerMay(target: String) throws {
        let rule = try #require(Self.rules.first { $0.target == target })
        let manifest = try #require(Self.manifest[target], "\(target) is not in Package.swift")
        var may = Set(rule.may)
        if rule.platform { may.formUnion(Self.platform) }
        let imports = try Self.imports(in: manifest.folder)
        #expect(!imports.isEmpty || rule.may.isEmpty, "no sources read for \(target)")
        for (module, places) in imports.sorted(by: { $0.key < $1.key }) where !may.contains(module) {
            Issue.record("\(target) may not import \(module) (docs/architecture.md): \(places.joined(separator: ", "))")
        }
    }

    /// Sources/ shows the layers: every target's folder is in its layer's folder.
    /// No file under Sources/Commands imports the platform's C library (Glibc,
    /// Darwin…): poll, sigaction, posix_spawn, termios and files go through
    /// SerialIO's typed wrappers, whose errors are `Errno` values.
    @Test func commandsCallNoSyscallDirectly() throws {
        let commands = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources/Commands").path)
        #expect(!commands.isEmpty, "no folders read under Sources/Commands")
        for folder in commands {
            for (module, places) in try Self.imports(in: "Sources/Commands/" + folder) where Self.platform.contains(module) {
                Issue.record("Sources/Commands may not import \(module): wrap the call in SerialIO (docs/architecture.md): \(places.joined(separator: ", "))")
            }
        }
    }

    @Test func everyTargetSitsInItsLayersFolder() throws {
        let placed = Self.rules.map { ($0.target, $0.layer) } + Self.cTargets
        for (target, layer) in placed {
            let manifest = try #require(Self.manifest[target], "\(target) is not in Package.swift")
            #expect(manifest.folder.hasPrefix(Self.folder(ofLayer: layer) + "/"),
                    "\(target) is a \(layer) target but lives in \(manifest.folder): move it under \(Self.folder(ofLayer: layer))/")
        }
        let sourceTargets = Self.manifest.filter { $0.value.folder.hasPrefix("Sources/") }.map(\.key)
        for name in sourceTargets where !placed.contains(where: { $0.0 == name }) {
            Issue.record("\(name) (\(Self.manifest[name]!.folder)) has no layer: add it to LayeringTests.rules or cTargets")
        }
        let layerFolders = Set(placed.map { Self.folder(ofLayer: $0.1) }.filter { $0.hasPrefix("Sources/") })
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        for entry in onDisk where !layerFolders.contains("Sources/" + entry) {
            Issue.record("Sources/\(entry) is not a layer's folder (\(layerFolders.sorted().joined(separator: ", ")))")
        }
    }

    @Test func everyTargetIsInTheTable() {
        let ruled = Set(Self.rules.map(\.target))
        for (name, target) in Self.manifest where !target.isTest && !target.isC && !ruled.contains(name) {
            Issue.record("\(name) has no import rule: add it to LayeringTests.rules and docs/architecture.md")
        }
    }

    /// Every package module a target imports is one of its declared dependencies
    /// (SwiftPM may find an undeclared module through another target's build
    /// folder; a clean or reordered build then fails).
    @Test func everyTargetDeclaresWhatItImports() throws {
        let packageModules = Set(Self.manifest.keys).union(Self.products)
        for (name, target) in Self.manifest.sorted(by: { $0.key < $1.key }) where !target.isC {
            for (module, places) in try Self.imports(in: target.folder) where packageModules.contains(module) {
                if module != name && !target.dependencies.contains(module) {
                    Issue.record("\(name) imports \(module) without declaring it in Package.swift: \(places.first ?? "")")
                }
            }
        }
    }

    @Test func architectureDocumentShowsTheTable() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let table = Self.renderedTable()
        #expect(doc.contains(table), "docs/architecture.md's import table is stale; replace it with:\n\(table)")
    }

    @Test func importParserReadsEveryForm() {
        let source = """
            import A
            @testable import B
            @_exported import C.Sub
            public import D
            @preconcurrency internal import E
            import struct F.Thing
            @_implementationOnly import G; import H
            #if canImport(I)
            // import NotThis
            let text = "import NotThisEither"
            """
        #expect(Set(Self.importedModules(in: source).map(\.module)) == ["A", "B", "C", "D", "E", "F", "G", "H", "I"])
    }

    // MARK: - The table as docs/architecture.md shows it

    static func renderedTable() -> String {
        var lines = ["| module | layer | may import |", "|---|---|---|"]
        for rule in rules {
            let may = rule.may.isEmpty ? "nothing (the standard library)" : rule.may.joined(separator: ", ")
            lines.append("| \(rule.target) | \(rule.layer) | \(may)\(rule.platform ? " (and the platform's C library)" : "") |")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Reading sources

    /// Each imported module with the files and lines that import it.
    static func imports(in folder: String) throws -> [String: [String]] {
        let url = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: url.path) else { return [:] }
        var found: [String: [String]] = [:]
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
            for (module, line) in importedModules(in: text) {
                found[module, default: []].append("\(folder)/\(file):\(line)")
            }
        }
        return found
    }

    /// Modules named by `import` declarations (any attributes, access level or
    /// kind, several per line) and by `canImport(...)`, with their line numbers.
    static func importedModules(in source: String) -> [(module: String, line: Int)] {
        var result: [(String, Int)] = []
        for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.components(separatedBy: "//")[0]
            for statement in line.split(separator: ";") {
                var words = statement.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                while let first = words.first, first.hasPrefix("@") || ["public", "internal", "private", "fileprivate", "package"].contains(first) {
                    words.removeFirst()
                }
                if words.first == "import", words.count >= 2 {
                    let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let", "actor"]
                    let path = words.count >= 3 && kinds.contains(words[1]) ? words[2] : words[1]
                    result.append((String(path.split(separator: ".")[0]), index + 1))
                }
            }
            var rest = Substring(line)
            while let range = rest.range(of: "canImport(") {
                let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !name.isEmpty { result.append((String(name), index + 1)) }
                rest = rest[range.upperBound...]
            }
        }
        return result
    }

    // MARK: - Reading Package.swift

    struct Target {
        var folder: String
        var dependencies: Set<String>
        var isTest: Bool
        var isC: Bool
    }

    /// Package.swift's targets by name, read from its text (`swift package
    /// dump-package` cannot run while `swift test` holds the build folder).
    static let manifest: [String: Target] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8) else { return [:] }
        var targets: [String: Target] = [:]
        for kind in ["target", "executableTarget", "testTarget", "systemLibrary"] {
            var rest = Substring(text)
            while let start = rest.range(of: ".\(kind)(") {
                let call = balanced(rest[start.upperBound...])
                rest = rest[start.upperBound...]
                guard let name = quoted(after: "name:", in: call) else { continue }
                let isTest = kind == "testTarget"
                let folder = quoted(after: "path:", in: call) ?? "\(isTest ? "Tests" : "Sources")/\(name)"
                var dependencies: Set<String> = []
                if let list = call.range(of: "dependencies:").map({ balanced(call[call.index(after: call[$0.upperBound...].firstIndex(of: "[")!)...], open: "[", close: "]") }) {
                    var items = list
                    while let quote = items.firstIndex(of: "\"") {
                        let after = items[items.index(after: quote)...]
                        guard let end = after.firstIndex(of: "\"") else { break }
                        let word = String(after[..<end])
                        // `.product(name: "X", package: "y")`: keep X, skip the package name.
                        let before = items[..<quote]
                        if !before.hasSuffix("package: ") { dependencies.insert(word) }
                        items = after[after.index(after: end)...]
                    }
                }
                let isC = kind == "systemLibrary" || (!isTest && !folderHasSwift(folder))
                targets[name] = Target(folder: folder, dependencies: dependencies, isTest: isTest, isC: isC)
            }
        }
        return targets
    }()

    /// Product names the package depends on (`.product(name: "X", ...)`).
    static let products: Set<String> = Set(manifest.values.flatMap(\.dependencies)).subtracting(manifest.keys)

    static func folderHasSwift(_ folder: String) -> Bool {
        guard let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { return false }
        return walker.contains { ($0 as? String)?.hasSuffix(".swift") == true }
    }

    /// The text up to the parenthesis (or bracket) closing the one already opened.
    static func balanced(_ text: Substring, open: Character = "(", close: Character = ")") -> Substring {
        var depth = 1
        var inString = false
        for index in text.indices {
            let c = text[index]
            if c == "\"" { inString.toggle() }
            if inString { continue }
            if c == open { depth += 1 }
            if c == close {
                depth -= 1
                if depth == 0 { return text[..<index] }
            }
        }
        return text
    }

    static func quoted(after label: String, in text: Substring) -> String? {
        guard let range = text.range(of: label) else { return nil }
        let after = text[range.upperBound...].drop { $0 == " " }
        guard after.first == "\"" else { return nil }
        return String(after.dropFirst().prefix { $0 != "\"" })
    }
}
