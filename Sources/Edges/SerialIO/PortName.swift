import TiltCore

/// A port name as messages show it: as typed when it is a plain path, else
/// escaped (`OneLineText`: a name holding ESC or a newline must not drive the
/// terminal or split a one-line error) and cut after 100 characters (a
/// 5000-character path gives no 5000-character line).
public enum PortName {
    /// Characters shown before the cut.
    public static let limit = 100

    /// `port` for a message.
    public static func shown(_ port: String) -> String { OneLineText.escaped(port, limit: limit) }
}
