/// How every message quotes a value it was given (options and files alike,
/// in both tools): in single quotes, control characters escaped so the
/// message stays one line, and at most `limit` characters, the rest cut with
/// an ellipsis, so a 50 MB value never makes a 50 MB "one-line" error (`OneLineText`).
public func quoted(_ text: some StringProtocol, limit: Int = 40) -> String {
    "'" + shortened(text, limit: limit) + "'"
}

/// A value shown bare in a message (`--motion tour: unknown`), as `quoted` shows it but without the quotes.
public func shortened(_ text: some StringProtocol, limit: Int = 40) -> String {
    OneLineText.escaped(text, limit: limit)
}
