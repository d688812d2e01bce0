import TiltCore

/// The DMP as far as drivers see it (filled in with the MotionApps 2.0 packets).
public struct MPU6050DMP: Sendable, Hashable {
    public static let packetSize = 42

    public init() {}

    func emitsPackets(userControl: UInt8) -> Bool { false }
    func samplesPerPacket(memory: [UInt8]) -> Int { 1 }
    mutating func reset(atMicros t: UInt64) {}
    mutating func enable(atMicros t: UInt64) {}
    func packet(atMicros t: UInt64, source: some MotionSource, reading: MPU6050Reading, gyroRange: GyroRange) -> [UInt8] { [] }
}
