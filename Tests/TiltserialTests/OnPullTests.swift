import Foundation
import TiltMotion
import Testing

@Suite struct OnPullTests {
    /// At rest for 1 s, then tipped past face-forward: the view runs into the top
    /// edge under the ribbon, which stretches and fires once.
    static func pullCSV() -> String {
        var csv = "t_us,ax,ay,az\n"
        for i in 0..<8000 {
            // 60° from face-up (30° back, the rest pose), then 110° (20° past upright).
            let a = Pose(back: i < 1000 ? 30 : -20).accelCounts()
            csv += "\(i * 1000),\(a.x),\(a.y),\(a.z)\n"
        }
        return csv
    }

    @Test func onPullRunsTheCommandWithTheFiresDataInItsEnvironment() throws {
        let csv = tempPath("pull.csv"), log = tempPath("pulls.log")
        try Data(Self.pullCSV().utf8).write(to: URL(fileURLWithPath: csv))
        let r = runTiltserial(["replay", csv, "--ribbon-center-x", "64", "--json",
                               "--on-pull", "sh -c 'echo \"$TILT_FIRES $TILT_T_US $TILT_PX $TILT_PY $TILT_PORT\" >> \(log)'"])
        #expect(r.code == 0)
        let fired = r.out.split(separator: "\n").filter { $0.contains("\"fired\":true") }
        #expect(fired.count == 1)
        guard let tick = fired.first else { return }
        func field(_ name: String) -> Substring {
            let start = tick.range(of: "\"\(name)\":")!.upperBound
            return tick[start...].prefix { $0 != "," && $0 != "}" }
        }
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged == "1 \(field("t_us")) \(field("px")) \(field("py")) \(csv)\n")
        #expect(r.err.contains("ribbon fired (#1) at board time \(field("t_us")) µs"))
        #expect(r.err.contains(" ticks, 1 fire\n"))
    }

    /// A hook that fails is counted in the summary (the docs said so; the count was kept and never shown).
    @Test func aFailingHookIsCountedInTheSummary() throws {
        let csv = tempPath("pull-fails.csv")
        try Data(Self.pullCSV().utf8).write(to: URL(fileURLWithPath: csv))
        let r = runTiltserial(["replay", csv, "--ribbon-center-x", "64", "--on-pull", "false"])
        #expect(r.code == 0)
        #expect(r.err.contains(" ticks, 1 fire, 1 --on-pull hook failed (a non-zero exit or a signal)\n"), "\(r.err)")
    }
}
