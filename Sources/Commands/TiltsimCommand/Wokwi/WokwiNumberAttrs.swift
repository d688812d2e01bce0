/// A part whose attrs are numbers, each checked as set-control checks it
/// (`WokwiLightSensor`, `WokwiThermistor`): Wokwi's defaults for the rest.
protocol WokwiNumberAttrs {
    /// The part at Wokwi's defaults.
    init()
    /// The attrs it reads; others are ignored, as Wokwi ignores them.
    static var attrNames: [String] { get }
    /// Sets one attr; a problem if it is outside what the part takes.
    mutating func set(_ name: String, _ value: Double) -> WokwiProblem?
}

extension WokwiNumberAttrs {
    /// The part at its attrs, each a number in its range; the first that is not, as a problem.
    static func parse(_ attrs: [String: String]) -> Result<Self, WokwiProblem> {
        var part = Self()
        for (key, text) in attrs.sorted(by: { $0.key < $1.key }) where attrNames.contains(key) {
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                return .failure(WokwiProblem("attrs \(key) \"\(text)\" is not a number"))
            }
            if let problem = part.set(key, value) { return .failure(problem) }
        }
        return .success(part)
    }
}
