/// A clock as people write it: "400k", "400 kHz", "1m", "1MHz", "16m",
/// "12000000" or "1.8432m", in hertz, rounded. One reading for every clock
/// tiltsim takes (`--display-max-clock`, a scenario's `display-max-clock`,
/// Wokwi's `frequency` attr), so "100k" is not refused where "400k" is taken.
enum ClockText {
    static func hertz(_ text: String) -> UInt32? {
        var rest = Substring(text.lowercased().trimmingCharacters(in: .whitespaces))
        if rest.hasSuffix("hz") { rest = rest.dropLast(2) }
        let scale: Double = rest.hasSuffix("m") ? 1e6 : rest.hasSuffix("k") ? 1e3 : 1
        if scale != 1 { rest = rest.dropLast() }
        while rest.last == " " { rest = rest.dropLast() }
        // Plain decimals only: Double also reads "nan", "inf" and hex floats.
        guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let number = Double(rest) else { return nil }
        let hertz = (number * scale).rounded()
        return (1...Double(UInt32.max)).contains(hertz) ? UInt32(hertz) : nil
    }
}
