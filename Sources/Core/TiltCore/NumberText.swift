/// Numbers as people write them in options and messages.
public enum NumberText {
    /// 0.25, 90, 5000: no ".0" on a whole number (Swift's description gives
    /// "5000.0" for the `--speed 5000` a person typed), no exponent below 1e15.
    public static func plain(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
