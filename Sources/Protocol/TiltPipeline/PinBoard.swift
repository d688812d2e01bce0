import TiltPhysics

/// The host's list of pins, oldest first, bounded by what the board keeps in
/// its RAM (`capacity` slots: docs/protocol.md, PIN). Pin k sits in the board's
/// slot k; `changedSlots` says which slots differ from what the board was told
/// (the sender clears it as it sends them).
///
/// Its storage is reserved once for `capacity` pins: adding, removing and
/// sending never allocate.
public struct PinBoard: Hashable, Sendable {
    /// Pins the board can keep: 32 slots of 5 bytes, 160 of its 2048 bytes of RAM.
    public static let capacity = 32

    /// The pins, oldest first; slot k on the board holds `pins[k]`.
    public private(set) var pins: [Pin]
    /// Bit k: slot k changed since it was last sent.
    public private(set) var changedSlots: UInt64 = 0

    /// The newest `capacity` of `pins` (oldest first).
    public init(_ pins: [Pin] = []) {
        var kept: [Pin] = []
        kept.reserveCapacity(Self.capacity)
        kept.append(contentsOf: pins.suffix(Self.capacity))
        self.pins = kept
        changedSlots = Self.mask(from: 0, to: kept.count)
    }

    /// An empty board to swap a session's pins out with while a closure holds them.
    static let placeholder = PinBoard()

    /// Pins kept, 0...`capacity`.
    public var count: Int { pins.count }
    /// No pins kept.
    public var isEmpty: Bool { pins.isEmpty }

    /// Adds a pin; when the board is full the oldest gives way and is returned.
    @discardableResult public mutating func add(_ pin: Pin) -> Pin? {
        var removed: Pin?
        if pins.count == Self.capacity {
            removed = pins.removeFirst()
            changedSlots |= Self.mask(from: 0, to: pins.count)  // every pin moved down a slot
        }
        pins.append(pin)
        changedSlots |= 1 << UInt64(pins.count - 1)
        return removed
    }

    /// Removes pin `index` (0 = oldest); nil when there is none.
    @discardableResult public mutating func remove(at index: Int) -> Pin? {
        guard pins.indices.contains(index) else { return nil }
        let removed = pins.remove(at: index)
        changedSlots |= Self.mask(from: index, to: pins.count)
        return removed
    }

    /// Removes every pin, keeping the storage, and forgets which slots were waiting to be sent.
    public mutating func removeAll() {
        pins.removeAll(keepingCapacity: true)
        changedSlots = 0
    }

    /// The board may have lost its slots (a reset, a replug): all are to be sent again.
    public mutating func markAllChanged() {
        changedSlots = Self.mask(from: 0, to: pins.count)
    }

    /// The lowest changed slot, marked as sent; nil when none is pending.
    public mutating func takeChangedSlot() -> Int? {
        let pending = changedSlots & Self.mask(from: 0, to: pins.count)
        guard pending != 0 else {
            changedSlots = 0
            return nil
        }
        let slot = pending.trailingZeroBitCount
        changedSlots = pending & ~(1 << UInt64(slot))
        return slot
    }

    /// Bits `from ..< to`.
    static func mask(from: Int, to: Int) -> UInt64 {
        guard to > from else { return 0 }
        let upper: UInt64 = to >= 64 ? .max : (1 << UInt64(to)) - 1
        return upper & ~((1 << UInt64(from)) - 1)
    }
}
