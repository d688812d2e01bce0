import Testing
@testable import BoardEmulator

/// tiltsim's "dropped" notice counts in the unit's number: it said "1 bytes".
@Suite struct UnreadOutputTests {
    @Test func oneIsSingular() {
        let bytes = UnreadOutput(count: 0, unit: "bytes", circumstance: "")
        let frames = UnreadOutput(count: 0, unit: "SAMPLE frames", circumstance: "")
        #expect(bytes.counted(1) == "1 byte" && bytes.counted(0) == "0 bytes" && bytes.counted(13) == "13 bytes")
        #expect(frames.counted(1) == "1 SAMPLE frame" && frames.counted(2) == "2 SAMPLE frames")
    }
}
