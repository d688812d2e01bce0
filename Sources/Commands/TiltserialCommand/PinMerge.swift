import TiltPhysics

/// Two runs saving to one pins file (two boards, or two terminals on one
/// map): each save keeps what the other saved meanwhile, and what `tiltserial
/// pins remove` took out, where the last writer's list used to win (a
/// tester's second board's pin was gone without a word). Pins are values,
/// compared whole, one occurrence at a time.
enum PinMerge {
    /// The file's pins now (`disk`) less those this run let go since its last
    /// save (in `before`, not in `ours`: the oldest, past the board's
    /// `capacity`), then this run's new ones; the newest `capacity`.
    static func merged(before: [Pin], ours: [Pin], disk: [Pin], capacity: Int) -> [Pin] {
        var pins = removing(removing(ours, from: before), from: disk) + removing(before, from: ours)
        if pins.count > capacity { pins.removeFirst(pins.count - capacity) }
        return pins
    }

    /// `list` less one occurrence of each of `taken`.
    static func removing(_ taken: [Pin], from list: [Pin]) -> [Pin] {
        var rest = list
        for pin in taken {
            if let i = rest.firstIndex(of: pin) { rest.remove(at: i) }
        }
        return rest
    }
}
