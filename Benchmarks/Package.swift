// swift-tools-version:6.1
// Benchmarks for tiltserial, kept apart so the main build stays fast.
// Run: cd Benchmarks && swift package benchmark   (see docs/performance.md)
import PackageDescription

let package = Package(
    name: "tiltserial-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "DecoderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WireProtocol", package: "tiltserial"),
                .product(name: "TiltCore", package: "tiltserial"),
            ],
            path: "Benchmarks/DecoderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "PhysicsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TiltPhysics", package: "tiltserial"),
                .product(name: "TiltCore", package: "tiltserial"),
            ],
            path: "Benchmarks/PhysicsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "RenderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TiltDisplay", package: "tiltserial"),
            ],
            path: "Benchmarks/RenderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
