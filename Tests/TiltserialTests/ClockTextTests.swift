import Testing
@testable import TiltsimCommand

/// Clocks as people write them, one reading for every option and file.
@Suite struct ClockTextTests {
    @Test(arguments: [
        ("400k", 400_000), ("100k", 100_000), ("400 kHz", 400_000), ("800KHZ", 800_000), ("1m", 1_000_000),
        ("1 MHz", 1_000_000), ("16m", 16_000_000), ("12000000", 12_000_000), ("1.8432m", 1_843_200), (" 20M ", 20_000_000),
    ] as [(String, UInt32)])
    func aClockIsReadInHertz(text: String, hertz: UInt32) {
        #expect(ClockText.hertz(text) == hertz)
    }

    @Test(arguments: ["", "k", "fast", "nan", "infm", "0x10m", "-400k", "1e6", "400kk", "5000000m", "0"])
    func anythingElseIsNoClock(text: String) {
        #expect(ClockText.hertz(text) == nil)
    }
}
