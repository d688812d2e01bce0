import Foundation
import Testing
@testable import BoardEmulator

/// Where the avr engine looks for the firmware: the source tree, else beside
/// the installed tools (`make install`'s share/tiltserial).
@Suite struct FirmwareLocationTests {
    @Test func theInstalledFirmwareIsFoundFromTheExecutablesFolder() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("firmware-location-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        #expect(FirmwareLocation.installed(executable: prefix + "/bin/tiltsim") == nil)
        try FileManager.default.createDirectory(atPath: prefix + "/share/tiltserial", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: prefix + "/share/tiltserial/tiltserial.elf", contents: Data([0x7F])))
        let found = try #require(FirmwareLocation.installed(executable: prefix + "/bin/tiltsim"))
        #expect(found == prefix + "/bin/../share/tiltserial/tiltserial.elf")
        #expect(FirmwareLocation.installed(executable: nil) == nil)
    }

    @Test func inTheSourceTreeTheTreesFirmwareWins() {
        // The tests run from the package root, which has Hardware/Makefile.
        #expect(FileManager.default.fileExists(atPath: "Hardware/Makefile"))
        #expect(FirmwareLocation.find(executable: "/nonexistent/bin/tiltsim") == "Hardware/build/tiltserial.elf")
        #expect(FirmwareLocation.runningExecutable()?.hasPrefix("/") == true)
    }
}
