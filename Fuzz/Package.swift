// swift-tools-version:6.0
// libFuzzer targets for the WireProtocol decoder and text readers, the config
// reader and the file readers (sample CSV, recordings), kept apart
// so the main build never needs the fuzzer runtime. Run: scripts/fuzz [SECONDS].
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name (tiltserial, or a
// worktree's name), so take it from the checkout instead of hard-coding it.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "tiltserial-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "DecoderFuzzer",
            dependencies: [
                .product(name: "WireProtocol", package: mainPackage),
                .product(name: "TiltCore", package: mainPackage),
            ]),
        // MARK: ConfigFuzzer: the --config reader (seeds in corpus-config/). FUZZER=ConfigFuzzer scripts/fuzz
        .executableTarget(
            name: "ConfigFuzzer",
            dependencies: [
                .product(name: "TiltserialSettings", package: mainPackage),
                .product(name: "TiltPhysics", package: mainPackage),
                .product(name: "TiltCore", package: mainPackage),
            ]),
        // MARK: end ConfigFuzzer
        // MARK: File readers (CSV samples, recordings): scripts/fuzz SECONDS CSVReaderFuzzer|RecordingReaderFuzzer
        .executableTarget(
            name: "CSVReaderFuzzer",
            dependencies: [.product(name: "TiltCore", package: mainPackage)]),
        .executableTarget(
            name: "RecordingReaderFuzzer",
            dependencies: [.product(name: "TiltPipeline", package: mainPackage)]),
        // MARK: End of the file readers' targets.
    ]
)
