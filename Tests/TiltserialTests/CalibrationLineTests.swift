import Testing
import TiltCore
@testable import TiltPipeline
@testable import TiltserialCommand

/// The line `tiltserial calibrate` ends with says which side is down in
/// words ("leaning 0° (right side down)" read oddly, a left lean as a minus).
@Suite struct CalibrationLineTests {
    @Test(arguments: [(1.5, "leaning 1.5° right side down"), (-2.5, "leaning 2.5° left side down"), (0, "level side to side"),
                      (-0.1, "leaning 0.1° left side down")])
    func theLeanIsSaidInWords(roll: Double, said: String) {
        let result = CalibrationSolver.Result(axes: .identity, restAngleDegrees: 52.4, restRollDegrees: roll, backDegrees: 20)
        #expect(Calibrate.describe(result) == "rest pose 52.4° from face-up, \(said); sensor axes x,y,z")
    }
}
