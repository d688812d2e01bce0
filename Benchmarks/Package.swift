// swift-tools-version:6.1
// Benchmarks for tiltserial, kept apart so the main build stays fast.
// Run: cd Benchmarks && swift package benchmark   (see docs/performance.md)
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, so the main package's
// identity is whatever the clone's folder is called.
let main = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "tiltserial-benchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "DecoderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WireProtocol", package: main),
                .product(name: "TiltCore", package: main),
                .product(name: "FirmwareCore", package: main),
                .product(name: "SerialIO", package: main),
            ],
            path: "Benchmarks/DecoderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "PhysicsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TiltPhysics", package: main),
                .product(name: "TiltCore", package: main),
                .product(name: "TiltMotion", package: main),
            ],
            path: "Benchmarks/PhysicsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "RenderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TiltDisplay", package: main),
            ],
            path: "Benchmarks/RenderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "HostBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TiltserialCommand", package: main),
                .product(name: "TiltPipeline", package: main),
                .product(name: "TiltPhysics", package: main),
                .product(name: "WireProtocol", package: main),
                .product(name: "TiltCore", package: main),
            ],
            path: "Benchmarks/HostBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "SerialLatencyBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SerialIO", package: main),
            ],
            path: "Benchmarks/SerialLatencyBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // Long free-running emulator runs, not harness iterations:
        // swift run -c release emulator-speed avr|native
        .executableTarget(
            name: "emulator-speed",
            dependencies: [
                .product(name: "BoardEmulator", package: main),
                .product(name: "SerialIO", package: main),
                .product(name: "WireProtocol", package: main),
                .product(name: "TiltAssets", package: main),
                .product(name: "TiltMotion", package: main),
                .product(name: "TiltPipeline", package: main),
                .product(name: "TiltserialCommand", package: main),
                .product(name: "TiltserialSettings", package: main),
                .product(name: "TiltCore", package: main),
            ],
            path: "EmulatorSpeed"),
    ]
)
