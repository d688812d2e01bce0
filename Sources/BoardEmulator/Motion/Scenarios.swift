/// Named motion scripts for `tiltsim --motion NAME` and the demo, tuned against
/// the real physics (TiltEngine, default settings, shipped 512 × 256 content):
/// see Tests/BoardEmulatorTests/ScenarioTests.swift for what each must do.
public enum Scenarios {
    /// Every scenario, by name.
    public static let all: [(name: String, summary: String, script: MotionScript)] = [
        ("rest", "held still at the rest pose (30° back)", rest),
    ]

    /// The names, in order.
    public static var names: [String] { all.map(\.name) }

    /// The scenario called `name`, or nil.
    public static func named(_ name: String) -> MotionScript? {
        all.first { $0.name == name }?.script
    }

    /// The rest pose, held.
    public static let rest = MotionScript(keys: [.init(0, .rest), .init(10, .rest)])
}
