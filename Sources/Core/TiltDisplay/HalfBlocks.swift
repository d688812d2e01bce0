/// Draws a screen as text for a terminal: one character per column and two
/// pixel rows (`▀` top lit, `▄` bottom lit, `█` both, space neither).
public enum HalfBlocks {
    /// 32 lines of 128 characters, top first, no line terminators.
    public static func lines(_ screen: Screen) -> [String] {
        (0..<(Screen.height / 2)).map { line in
            var text = String.UnicodeScalarView()
            for x in 0..<Screen.width {
                switch (screen[x, 2 * line], screen[x, 2 * line + 1]) {
                case (true, true): text.append("█")
                case (true, false): text.append("▀")
                case (false, true): text.append("▄")
                case (false, false): text.append(" ")
                }
            }
            return String(text)
        }
    }
}
