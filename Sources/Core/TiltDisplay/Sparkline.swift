/// A row of block characters (▁ to █) showing how a value moved: one
/// character per value, the lowest eighth for `low`, the full block for `high`.
public enum Sparkline {
    static let levels: [Unicode.Scalar] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One character per value; values outside low...high are clamped. A NaN is a space.
    public static func text(_ values: some Sequence<Double>, low: Double, high: Double) -> String {
        var text = String.UnicodeScalarView()
        let span = high - low
        for value in values {
            guard !value.isNaN else {
                text.append(" ")
                continue
            }
            let level = span > 0 ? Int(((value - low) / span * 8).rounded(.down)) : 0
            text.append(levels[min(max(level, 0), levels.count - 1)])
        }
        return String(text)
    }

    /// The range a sparkline of `values` is drawn over: their lowest and highest,
    /// widened about its middle to at least `minimumSpan` (so sensor noise on a
    /// board at rest stays a flat line instead of filling the whole height).
    public static func range(_ values: some Sequence<Double>, minimumSpan: Double) -> (low: Double, high: Double) {
        var low = Double.infinity, high = -Double.infinity
        for value in values where !value.isNaN {
            low = min(low, value)
            high = max(high, value)
        }
        guard low <= high else { return (-minimumSpan / 2, minimumSpan / 2) }
        if high - low < minimumSpan {
            let middle = (low + high) / 2
            return (middle - minimumSpan / 2, middle + minimumSpan / 2)
        }
        return (low, high)
    }
}

/// A horizontal bar in eighths of a cell (▏ to █), `width` cells for `full`.
public enum MeterBar {
    static let eighths: [Unicode.Scalar] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// Exactly `width` characters: the filled part, then spaces. Values are clamped to 0...full.
    public static func text(_ value: Double, full: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let fraction = full > 0 && !value.isNaN ? min(max(value / full, 0), 1) : 0
        let total = Int((fraction * Double(width * 8)).rounded())
        var text = String.UnicodeScalarView()
        for _ in 0..<(total / 8) { text.append("█") }
        if total % 8 > 0 { text.append(eighths[total % 8 - 1]) }
        while text.count < width { text.append(" ") }
        return String(text)
    }
}
