/// Where the MPU-6050's INT pin is wired, before the board is known: where
/// that board's sketches expect it (`ArduinoBoard.defaultInterruptPin`),
/// nowhere, or a given port pin.
public enum InterruptWiring: Sendable, Hashable {
    /// Where the board's sketches expect it.
    case boardDefault
    /// Nowhere: the sketch polls INT_STATUS, or INT is left open.
    case notWired
    /// This port pin.
    case pin(AVRPin)

    /// The port pin on `board`, or nil: not wired.
    public func pin(on board: ArduinoBoard) -> AVRPin? {
        switch self {
        case .boardDefault: board.defaultInterruptPin
        case .notWired: nil
        case .pin(let pin): pin
        }
    }
}
