// swift-tools-version:6.0
// tiltserial: host tool, board emulator and their pure core. See docs/architecture.md.
import PackageDescription

let package = Package(
    name: "tiltserial",
    // Linux only (README, "Platforms"): no Apple platform is claimed; SerialIO/LinuxOnly.swift says so elsewhere.
    products: [
        .executable(name: "tiltserial", targets: ["tiltserial"]),
        .executable(name: "tiltsim", targets: ["tiltsim"]),
        .library(name: "TiltCore", targets: ["TiltCore"]),
        .library(name: "WireProtocol", targets: ["WireProtocol"]),
        .library(name: "TiltPhysics", targets: ["TiltPhysics"]),
        .library(name: "TiltDisplay", targets: ["TiltDisplay"]),
        .library(name: "TiltPipeline", targets: ["TiltPipeline"]),
        // The host's in-process API (HostRunner), for `tiltserial demo` and Benchmarks/HostBenchmarks.
        .library(name: "TiltserialCommand", targets: ["TiltserialCommand"]),
        // The settings table and the pure config-file reader, for Fuzz/ConfigFuzzer.
        .library(name: "TiltserialSettings", targets: ["TiltserialSettings"]),
        // For Benchmarks/ (pty latency, emulator speed).
        .library(name: "SerialIO", targets: ["SerialIO"]),
        .library(name: "BoardEmulator", targets: ["BoardEmulator"]),
        // Poses → accelerometer counts, for Benchmarks/PhysicsBenchmarks' samples.
        .library(name: "TiltMotion", targets: ["TiltMotion"]),
        // The shipped art, for Benchmarks/EmulatorSpeed's glass statistics (the expected screens).
        .library(name: "TiltAssets", targets: ["TiltAssets"]),
        // The firmware's C protocol code: the yardstick of Benchmarks/DecoderBenchmarks.
        .library(name: "FirmwareCore", targets: ["FirmwareCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        // tiltsim run's scenario files (YAML); its own libyaml copy, no system package.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // The folders under Sources/ are the layers (docs/architecture.md, "Who may import whom"):
        // Core, Protocol, Edges, Commands, Tools. LayeringTests checks each target sits in its layer's folder.

        // MARK: Sources/Core: pure values in, values out. No Foundation, no I/O, no clocks.
        .target(name: "TiltCore", path: "Sources/Core/TiltCore"),
        .target(name: "TiltPhysics", dependencies: ["TiltCore"], path: "Sources/Core/TiltPhysics"),
        .target(name: "TiltDisplay", dependencies: ["TiltCore"], path: "Sources/Core/TiltDisplay"),
        // The art files are the source shared with the firmware; EmbeddedArt.swift is generated from them (make -C Hardware assets).
        .target(name: "TiltAssets", dependencies: ["TiltCore", "TiltDisplay"], path: "Sources/Core/TiltAssets", exclude: ["Resources"]),
        // What the emulated sensor feels: poses, motion scripts, the named scenarios (pure values, libm's trigonometry).
        .target(name: "TiltMotion", dependencies: ["TiltCore"], path: "Sources/Core/TiltMotion"),
        // The tools' version number: one constant both commands link.
        .target(name: "TiltVersion", path: "Sources/Core/TiltVersion"),
        // The exit statuses of both tools: one table (docs/usage.md, "Exit codes").
        .target(name: "TiltExitStatus", path: "Sources/Core/TiltExitStatus"),

        // MARK: Sources/Protocol: the wire format and the host's side of the conversation (pure state machines).
        .target(name: "WireProtocol", dependencies: ["TiltCore"], path: "Sources/Protocol/WireProtocol"),
        .target(name: "TiltPipeline", dependencies: ["TiltCore", "WireProtocol", "TiltPhysics", "TiltDisplay"], path: "Sources/Protocol/TiltPipeline"),

        // MARK: Sources/Edges: serial ports, ptys, the simulator, and the C libraries under them.
        .systemLibrary(
            name: "CLibSerialPort", path: "Sources/Edges/CLibSerialPort", pkgConfig: "libserialport",
            providers: [.apt(["libserialport-dev"])]),
        .target(name: "CSerialShims", path: "Sources/Edges/CSerialShims"),
        .target(name: "SerialIO", dependencies: [
            "TiltCore", "CLibSerialPort", "CSerialShims",
            .product(name: "SystemPackage", package: "swift-system"),
        ], path: "Sources/Edges/SerialIO"),
        .systemLibrary(
            name: "CSimAVR", path: "Sources/Edges/CSimAVR", pkgConfig: "simavr simavrparts",
            providers: [.apt(["libsimavr-dev", "libsimavrparts1", "libelf-dev"])]),
        .target(name: "CBoardParts", dependencies: ["CSimAVR"], path: "Sources/Edges/CBoardParts"),
        .target(name: "BoardEmulator", dependencies: [
            "TiltMotion", "TiltCore", "WireProtocol", "TiltDisplay", "TiltAssets", "SerialIO", "CSerialShims", "CSimAVR", "CBoardParts",
            // The native board runs the firmware's own C for its behaviour.
            "FirmwareCore",
            .product(name: "SystemPackage", package: "swift-system"),
        ], path: "Sources/Edges/BoardEmulator"),
        // Reading reference screens for tiltsim run --expect-screen (any PNG a person may save).
        .systemLibrary(name: "CLibPNG", path: "Sources/Edges/CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),

        // MARK: Sources/Commands: the two tools' command lines over everything above.
        // Settings: one table (key, option, type, unit, range, default) and the strict config reader. No Foundation.
        .target(name: "TiltserialSettings", dependencies: ["TiltCore", "TiltPhysics"], path: "Sources/Commands/TiltserialSettings"),
        .target(name: "TiltserialCommand", dependencies: [
            "TiltserialSettings", "TiltCore", "WireProtocol", "TiltPhysics", "TiltDisplay", "TiltPipeline", "TiltAssets",
            "SerialIO", "TiltMotion", "TiltVersion", "TiltExitStatus",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SystemPackage", package: "swift-system"),
        ], path: "Sources/Commands/TiltserialCommand"),
        .executableTarget(name: "tiltserial", dependencies: ["TiltserialCommand"], path: "Sources/Commands/tiltserial"),
        .target(name: "TiltsimCommand", dependencies: [
            "BoardEmulator", "SerialIO", "TiltAssets", "TiltDisplay", "TiltCore", "CLibPNG", "TiltVersion", "TiltExitStatus", "WireProtocol",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Yams", package: "Yams"),
        ], path: "Sources/Commands/TiltsimCommand"),
        .executableTarget(name: "tiltsim", dependencies: ["TiltsimCommand"], path: "Sources/Commands/tiltsim"),

        // MARK: Sources/Tools: the developers' generators.
        // Draws docs/plots (physics): swift run physics-plots docs/plots
        .executableTarget(name: "physics-plots", dependencies: ["TiltPhysics", "TiltCore", "TiltMotion"], path: "Sources/Tools/PhysicsPlots"),
        // Writes SettingsOptions.swift and docs/usage.md's settings table from the table: swift run settings-codegen
        .executableTarget(name: "settings-codegen", dependencies: ["TiltserialSettings"], path: "Sources/Tools/SettingsCodegen"),

        // MARK: The firmware's shared C code (protocol, page renderer), compiled on the host for tests.
        .target(name: "FirmwareCore", path: "Hardware/tiltserial/src/core", publicHeadersPath: "."),

        // MARK: Tests.
        // What several test targets share: the one pty peer, the reference screen (docs/display.md read literally).
        .target(name: "TestSupport", dependencies: [
            "SerialIO", "WireProtocol", "TiltCore", "TiltDisplay", .product(name: "SystemPackage", package: "swift-system"),
        ], path: "Tests/TestSupport"),
        .testTarget(name: "TiltCoreTests", dependencies: ["TiltCore"]),
        .testTarget(name: "WireProtocolTests", dependencies: ["WireProtocol", "TiltCore"]),
        .target(name: "CRecipeOracle", path: "Tests/CRecipeOracle"),
        .testTarget(name: "TiltPhysicsTests", dependencies: ["TiltPhysics", "TiltCore", "TiltMotion", "CRecipeOracle"]),
        .testTarget(name: "TiltDisplayTests", dependencies: ["TiltDisplay", "TiltAssets", "TiltCore", "TestSupport"]),
        .testTarget(name: "TiltPipelineTests", dependencies: ["TiltPipeline", "WireProtocol", "TiltPhysics", "TiltCore", "TiltMotion"]),
        .target(name: "CPtyInterposer", path: "Tests/CPtyInterposer"),
        .testTarget(name: "SerialIOTests", dependencies: [
            "SerialIO", "TiltCore", "CPtyInterposer", "TestSupport", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .testTarget(name: "FirmwareProtocolTests", dependencies: ["FirmwareCore", "WireProtocol", "TiltDisplay", "TiltAssets", "TiltCore"]),
        .testTarget(name: "BoardEmulatorTests", dependencies: [
            "BoardEmulator", "TiltMotion", "TiltPipeline", "TiltDisplay", "TiltAssets", "SerialIO", "TiltCore", "WireProtocol", "TiltPhysics",
            "FirmwareCore", "CBoardParts", "TestSupport",
        ], exclude: ["Fixtures"]),
        .testTarget(name: "TiltserialTests", dependencies: [
            "TiltserialCommand", "TiltsimCommand", "TiltserialSettings", "BoardEmulator", "SerialIO",
            "TiltDisplay", "TiltPipeline", "TiltAssets", "WireProtocol", "TiltCore", "TiltPhysics", "TiltMotion", "TiltVersion", "TiltExitStatus", "TestSupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The host against the real firmware in simavr and the native board, over ptys (needs Hardware/build/tiltserial.elf).
        .testTarget(name: "EndToEndTests", dependencies: [
            "TiltserialCommand", "BoardEmulator", "SerialIO", "TiltPipeline", "TiltPhysics", "TiltDisplay", "TiltAssets", "WireProtocol", "TiltCore", "TestSupport",
        ]),
    ]
)
