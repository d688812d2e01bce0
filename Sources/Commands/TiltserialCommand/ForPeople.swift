/// Numbers as people read them in one-line messages and the summary: counts
/// with the noun in the right form, ratios rounded to what
/// matters (durations: TiltCore's DurationText). `--json` keeps every value exact; this is only for the lines
/// people read.
enum ForPeople {
    /// "0 fires", "1 fire", "2 fires"; `plural` for nouns that add more than an s.
    static func count(_ n: some BinaryInteger, _ singular: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }

    /// `x` to `places` decimals (half away from zero), without Foundation's
    /// String(format:): `decimal(2.996, places: 2)` is "3.00".
    static func decimal(_ x: Double, places: Int) -> String {
        guard x.isFinite else { return "\(x)" }
        var scale: Double = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(x) * scale).rounded()
        guard scaled < 9e15 else { return "\(x)" }
        let whole = UInt64(scaled)
        let unit = UInt64(scale)
        var text = (x < 0 && whole != 0 ? "-" : "") + String(whole / unit)
        if places > 0 {
            let fraction = String(whole % unit)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }
}
