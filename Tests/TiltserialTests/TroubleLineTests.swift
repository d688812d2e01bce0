import Testing
@testable import TiltserialCommand

/// The loss warning names only what happened in the last second.
@Suite struct TroubleLineTests {
    @Test func onlyWhatHappenedIsNamed() {
        let tail = "in the last second (12 lost, 3 errors in all); check the cable, the baud rate and that nothing else reads the port"
        #expect(RunOutput.trouble(lost: 0, errors: 1, totalLost: 12, totalErrors: 3) == "1 frame damaged " + tail)
        #expect(RunOutput.trouble(lost: 12, errors: 0, totalLost: 12, totalErrors: 3) == "12 frames lost " + tail)
        #expect(RunOutput.trouble(lost: 1, errors: 3, totalLost: 12, totalErrors: 3) == "1 frame lost and 3 damaged " + tail)
    }
}
