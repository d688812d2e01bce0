import Foundation
import Testing

/// The host binary needs no emulator: `ldd tiltserial` names no simavr, no
/// libelf, no OpenGL (simavr's parts pull those in), and no full Foundation
/// (its start-up cost; FoundationEssentials comes with ArgumentParser).
@Suite struct HostBinaryTests {
    /// The `tiltserial` executable SwiftPM built beside this test bundle.
    static let binary: URL? = {
        var folder = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("tiltserial")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    @Test func hostLinksNoEmulatorLibraries() throws {
        let binary = try #require(Self.binary, "tiltserial not built beside the tests (swift build --build-tests builds it)")
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [binary.path]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(ldd.terminationStatus == 0, "\(text)")
        #expect(text.contains("libserialport"), "ldd read the binary: \(text)")
        for library in ["libsimavr", "libelf", "libGL", "libX11", "libFoundation.so", "libFoundationInternationalization"] {
            #expect(!text.contains(library), "tiltserial links \(library):\n\(text)")
        }
    }
}
