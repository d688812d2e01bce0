import Foundation
import Testing
@testable import TiltsimCommand

/// diagram.json's and JSON scenarios' syntax errors name their line and column.
@Suite struct JSONSyntaxPlaceTests {
    @Test(arguments: [
        ("{\n  \"version\": 1,\n  \"parts\": [ {\"type\": \"wokwi-arduino-uno\", \"id\": \"uno\"},, ]\n}\n", "diagram.json:3:57: invalid value; not valid JSON: check it in Wokwi's editor"),
        ("{\n  \"version\": 1,\n  \"parts\": [\n", "diagram.json:4:1: unexpected end of file during json parse; not valid JSON: check it in Wokwi's editor"),
        ("{\"parts\": [\"é\", x]}", "diagram.json:1:17: invalid value; not valid JSON: check it in Wokwi's editor"),
    ])
    func aBrokenDiagramIsRefusedWithItsPlace(text: String, message: String) {
        guard case .failure(let problem) = WokwiDiagram.parse(Data(text.utf8), file: "diagram.json") else {
            Issue.record("parsed")
            return
        }
        #expect(problem.message == message)
    }

    /// A diagram past 100 000 keys and values is refused before
    /// JSONSerialization builds it; commas and colons inside strings do not count.
    @Test func aDiagramTooLongIsRefusedBeforeItIsRead() {
        let part = #"{"type":"wokwi-led","id":"l","attrs":{"color":"red"}}"#
        let long = #"{"version":1,"parts":["# + Array(repeating: part, count: 20_001).joined(separator: ",") + "]}"
        guard case .failure(let problem) = WokwiDiagram.parse(Data(long.utf8), file: "diagram.json") else {
            Issue.record("parsed")
            return
        }
        #expect(problem.message == "diagram.json: more than 100000 JSON keys and values: longer than any a person writes; is it the file you meant?")
        let strings = #"{"version":1,"parts":[],"connections":[["a:1","b:2","red",["#
            + Array(repeating: #"",,,:::[[[{{{""#, count: 20_000).joined(separator: ",") + "]]]}"
        if case .failure(let problem) = WokwiDiagram.parse(Data(strings.utf8), file: "diagram.json") {
            #expect(!problem.message.contains("more than"), "\(problem.message)")
        }
    }

    @Test func placesCountLinesAndCharacters() {
        let data = Data("ab\ncé\nx".utf8)
        #expect(JSONSyntaxPlace.place(of: 0, in: data) == (1, 1))
        #expect(JSONSyntaxPlace.place(of: 3, in: data) == (2, 1))
        #expect(JSONSyntaxPlace.place(of: 6, in: data) == (2, 3), "é is two bytes, one character")
        #expect(JSONSyntaxPlace.place(of: data.count, in: data) == (3, 2))
    }
}
