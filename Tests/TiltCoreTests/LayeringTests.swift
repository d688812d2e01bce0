import Foundation
import Testing

/// docs/architecture.md's import rules for the pure core, checked on the
/// sources: a pure module imports only the modules below it, never
/// Foundation, Glibc or an edge.
@Suite struct LayeringTests {
    static let allowed: [String: Set<String>] = [
        "TiltCore": [],
        "WireProtocol": ["TiltCore"],
        "TiltPhysics": ["TiltCore"],
        "TiltDisplay": ["TiltCore"],
        "TiltPipeline": ["TiltCore", "WireProtocol", "TiltPhysics", "TiltDisplay"],
        "TiltVersion": [],
    ]

    @Test(arguments: allowed.keys.sorted())
    func pureModuleImportsOnlyWhatItMay(module: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@_exported import ") {
                let imported = String(line.split(separator: " ").last!)
                #expect(Self.allowed[module]!.contains(imported), "\(module)/\(file) imports \(imported)")
            }
        }
    }
}
