import Testing
import TiltCore

/// HexText and DurationText against values written out by hand.
@Suite struct TextFormatTests {
    @Test func hexShowsEveryDigitOfTheType() {
        #expect(HexText.digits(UInt8(0x0A)) == "0a")
        #expect(HexText.digits(UInt8(0x0A), uppercase: true) == "0A")
        #expect(HexText.digits(UInt16(0x2341)) == "2341")
        #expect(HexText.digits(UInt16(0x1A)) == "001a")
        #expect(HexText.prefixed(UInt8(0x68)) == "0x68")
        #expect(HexText.prefixed(UInt8(0x3)) == "0x03")
        #expect(HexText.prefixed(UInt16(0xBEEF)) == "0xBEEF")
        #expect(HexText.prefixed(UInt16(0x2A)) == "0x002A")
    }

    @Test func secondsRoundOrTruncateAsAsked() {
        #expect(DurationText.seconds(micros: 0, places: 3) == "0.000 s")
        #expect(DurationText.seconds(micros: 1_234_499, places: 3) == "1.234 s")
        #expect(DurationText.seconds(micros: 1_234_500, places: 3) == "1.235 s")
        #expect(DurationText.seconds(micros: 4_099_999, places: 1, rounding: .down) == "4.0 s")
        #expect(DurationText.seconds(micros: 12_500_000, places: 1, rounding: .down) == "12.5 s")
        #expect(DurationText.seconds(micros: 2_500_000, places: 0) == "3 s")
        #expect(DurationText.seconds(micros: 7, places: 6) == "0.000007 s")
    }

    @Test func spansGrowIntoMinutesAndHours() {
        #expect(DurationText.span(micros: 449_999) == "0.4 s")
        #expect(DurationText.span(micros: 59_950_000) == "1 min 0 s")
        #expect(DurationText.span(micros: 3_725_000_000) == "1 h 2 min")
    }
}
