import Testing
import TiltCore

@Suite struct HostTimeTests {
    @Test func addsMicrosAndMeasuresTheSpanBetweenTwoMoments() {
        let opened = HostTime(micros: 7_000)
        let deadline = opened + 4_000_000
        #expect(deadline == HostTime(micros: 4_007_000))
        #expect(deadline.micros(since: opened) == 4_000_000)
        #expect(opened < deadline && !(deadline < opened))
        #expect(HostTime.zero.micros == 0)
        #expect("\(deadline)" == "4007000 µs")
    }

    /// The driver's deadline arithmetic wrapped before HostTime (`&+`, `&-`);
    /// the type keeps that rather than trapping on a "never" time-out.
    @Test func wrapsLikeTheWrappingOperators() {
        let late = HostTime(micros: .max - 1)
        #expect(late + 3 == HostTime(micros: 1))
        #expect(HostTime(micros: 1).micros(since: HostTime(micros: 3)) == UInt64.max - 1)
    }
}
