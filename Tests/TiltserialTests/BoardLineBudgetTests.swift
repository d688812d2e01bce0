import Testing
@testable import TiltserialCommand

/// HELLO and PARTS lines from a board that keeps sending them: a burst is
/// said, the rest counted and summed up once it settles, or every 30 s of
/// ticks while it goes on, or at the end.
@Suite struct BoardLineBudgetTests {
    @Test func aBurstIsSaidThenTheRestSummedWhenTheBoardSettles() {
        var budget = BoardLineBudget()
        let said = (0..<10).map { budget.take("board: \($0)") }
        #expect(said == Array(repeating: true, count: BoardLineBudget.burst) + Array(repeating: false, count: 10 - BoardLineBudget.burst))
        let reports = (0..<BoardLineBudget.quietTicks).compactMap { _ in budget.tick() }
        #expect(reports == ["the board said HELLO or PARTS 4 more times (not shown): it keeps resetting or changing what it reports "
                            + "(a brown-out, a loose wire, a sketch that crashes?); latest: board: 9"])
        let again = budget.take("board: again")
        #expect(again, "settled: a new burst")
        let nothing = budget.report()
        #expect(nothing == nil, "nothing held")
    }

    @Test func aStormThatGoesOnIsSummedEveryReportPeriodAndAtTheEnd() {
        var budget = BoardLineBudget()
        var reports: [String] = []
        for k in 0..<2500 {
            _ = budget.take("board: \(k)")
            if let line = budget.tick() { reports.append(line) }
        }
        #expect(reports.count == 2, "every \(BoardLineBudget.reportTicks) ticks: \(reports.count)")
        #expect(reports.first?.contains("\(BoardLineBudget.reportTicks) more times") == true, "\(reports.first ?? "")")
        let last = budget.report(), none = budget.report()
        #expect(last?.hasSuffix("latest: board: 2499") == true)
        #expect(none == nil)
    }
}
