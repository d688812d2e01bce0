import Foundation
import Testing
@testable import BoardEmulator

/// Where the avr engine looks for the firmware: beside the installed tools
/// (`make install`'s share/tiltserial), else in the source tree the executable
/// was built in; found from the executable, never the working directory.
@Suite struct FirmwareLocationTests {
    /// A fresh folder for one test, removed by the caller.
    func scratch(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("firmware-location-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func touch(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x7F])))
    }

    @Test func theInstalledFirmwareIsFoundFromTheExecutablesFolder() throws {
        let prefix = try scratch("prefix")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        #expect(FirmwareLocation.installed(executable: prefix + "/bin/tiltsim") == nil)
        #expect(FirmwareLocation.find(executable: prefix + "/bin/tiltsim") == nil)
        try touch(prefix + "/share/tiltserial/tiltserial.elf")
        let found = try #require(FirmwareLocation.installed(executable: prefix + "/bin/tiltsim"))
        #expect(found == prefix + "/bin/../share/tiltserial/tiltserial.elf")
        #expect(FirmwareLocation.find(executable: prefix + "/bin/tiltsim") == found)
        #expect(FirmwareLocation.installed(executable: nil) == nil)
    }

    /// `make install` puts every board's build beside the tools, in
    /// share/tiltserial/BOARD as Hardware/build does, so an installed
    /// `tiltsim --board mega` runs a Mega without the source tree.
    @Test func anotherBoardsInstalledFirmwareIsFoundInItsOwnFolder() throws {
        let prefix = try scratch("boards")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        let tiltsim = prefix + "/bin/tiltsim"
        #expect(FirmwareLocation.candidates(executable: tiltsim, board: "mega") == [prefix + "/bin/../share/tiltserial/mega/tiltserial.elf"])
        #expect(FirmwareLocation.find(executable: tiltsim, board: "mega") == nil)
        try touch(prefix + "/share/tiltserial/tiltserial.elf")
        #expect(FirmwareLocation.find(executable: tiltsim, board: "mega") == nil, "the Uno's build is not a Mega's")
        try touch(prefix + "/share/tiltserial/mega/tiltserial.elf")
        #expect(FirmwareLocation.find(executable: tiltsim, board: "mega") == prefix + "/bin/../share/tiltserial/mega/tiltserial.elf")
        #expect(FirmwareLocation.find(executable: tiltsim, board: "uno") == prefix + "/bin/../share/tiltserial/tiltserial.elf")
    }

    /// A tree with Package.swift and Hardware/Makefile above the executable
    /// (where `swift build` puts it) is a source tree; its built ELF is found.
    @Test func aSourceTreeIsFoundAboveTheExecutable() throws {
        let tree = try scratch("tree")
        defer { try? FileManager.default.removeItem(atPath: tree) }
        let executable = tree + "/.build/x86_64-unknown-linux-gnu/debug/tiltsim"
        let elf = tree + "/Hardware/build/tiltserial.elf"
        try touch(tree + "/Package.swift")
        #expect(FirmwareLocation.packageRoot(above: tree + "/.build/x86_64-unknown-linux-gnu/debug") == nil)
        try touch(tree + "/Hardware/Makefile")
        #expect(FirmwareLocation.packageRoot(above: tree + "/.build/x86_64-unknown-linux-gnu/debug") == tree)
        #expect(FirmwareLocation.candidates(executable: executable)
                == [tree + "/.build/x86_64-unknown-linux-gnu/debug/../share/tiltserial/tiltserial.elf", elf])
        #expect(FirmwareLocation.find(executable: executable) == nil, "not built yet")
        try touch(elf)
        #expect(FirmwareLocation.find(executable: executable) == elf)
    }

    /// The working directory (the package root under `swift test`) is not
    /// searched: an executable outside any tree finds nothing.
    @Test func anExecutableOutsideAnyTreeFindsNoSourceTree() throws {
        let elsewhere = try scratch("elsewhere")
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        #expect(FirmwareLocation.candidates(executable: elsewhere + "/bin/tiltsim") == [elsewhere + "/bin/../share/tiltserial/tiltserial.elf"])
        #expect(FirmwareLocation.find(executable: elsewhere + "/bin/tiltsim") == nil)
        #expect(FirmwareLocation.candidates(executable: "tiltsim").isEmpty, "a bare name has no folder")
    }

    @Test func theInstalledFirmwareWinsOverASourceTree() throws {
        let tree = try scratch("both")
        defer { try? FileManager.default.removeItem(atPath: tree) }
        for file in ["Package.swift", "Hardware/Makefile", "Hardware/build/tiltserial.elf", "stage/bin/tiltsim",
                     "stage/share/tiltserial/tiltserial.elf"] {
            try touch(tree + "/" + file)
        }
        #expect(FirmwareLocation.find(executable: tree + "/stage/bin/tiltsim") == tree + "/stage/bin/../share/tiltserial/tiltserial.elf")
    }

    /// This test binary, built by SwiftPM under .build, finds this package's root.
    @Test func theTestBinaryIsInsideThisSourceTree() throws {
        let executable = try #require(FirmwareLocation.runningExecutable())
        #expect(executable.hasPrefix("/"))
        let folder = (executable as NSString).deletingLastPathComponent
        #expect(FirmwareLocation.packageRoot(above: folder) == BuiltFirmware.root)
    }
}
