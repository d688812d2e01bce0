// swift-tools-version:6.0
// libFuzzer target for the WireProtocol decoder and text readers, kept apart
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
    ]
)
