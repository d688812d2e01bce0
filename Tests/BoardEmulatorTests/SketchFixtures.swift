import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Fixture sketches (Fixtures/Sketches/NAME/NAME.ino), built once per test
/// process with avr-gcc and the Arduino core by Hardware/sketch.mk, as ELF and
/// as the Intel HEX the Arduino IDE exports. A failed build is an error, never a skip.
enum SketchFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let sources = root + "/Tests/BoardEmulatorTests/Fixtures/Sketches"
    static let output = FileManager.default.temporaryDirectory
        .appendingPathComponent("tiltsim-sketches-\(getpid())-\(UUID().uuidString.prefix(8))").path

    struct Built: Sendable {
        let elf: String
        let hex: String
    }

    static let bootEcho = build("boot_echo")
    static let tiltBar = build("tilt_bar")
    static let intPin = build("int_pin")

    private static let lock = NSLock()

    /// Builds NAME once (the core is shared between fixtures).
    static func build(_ name: String) -> Result<Built, AVRTestFailure> {
        lock.lock()
        defer { lock.unlock() }
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-f", root + "/Hardware/sketch.mk", "SKETCH_DIR=\(sources)/\(name)",
                          "OUT=\(output)/\(name)", "CORE_OUT=\(output)/core"]
        make.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        make.standardError = errors
        do { try make.run() } catch {
            return .failure(AVRTestFailure("cannot run make: \(error); install make, gcc-avr and arduino-core-avr (scripts/install-deps)"))
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        make.waitUntilExit()
        let built = Built(elf: "\(output)/\(name)/\(name).elf", hex: "\(output)/\(name)/\(name).hex")
        guard make.terminationStatus == 0, FileManager.default.fileExists(atPath: built.hex) else {
            return .failure(AVRTestFailure("building fixture \(name) failed: \(message.suffix(800))"))
        }
        return .success(built)
    }
}
