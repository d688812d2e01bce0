import Testing
import TiltPhysics
@testable import TiltPipeline

@Suite struct PinBoardTests {
    static func pin(_ k: Int) -> Pin { Pin(item: k % 8, x: 100 + k, y: 50 + k) }

    @Test func itKeepsAtMostThirtyTwoAndTheOldestGivesWay() {
        var board = PinBoard()
        for k in 0..<PinBoard.capacity { #expect(board.add(Self.pin(k)) == nil) }
        #expect(board.count == 32)
        #expect(board.add(Self.pin(32)) == Self.pin(0))
        #expect(board.count == 32 && board.pins.first == Self.pin(1) && board.pins.last == Self.pin(32))
        // Loading more than fit keeps the newest.
        let loaded = PinBoard((0..<40).map(Self.pin))
        #expect(loaded.pins == (8..<40).map(Self.pin))
    }

    @Test func changedSlotsAreTheOnesTheBoardMustBeToldAbout() {
        var board = PinBoard([Self.pin(0), Self.pin(1)])
        #expect(board.takeChangedSlot() == 0 && board.takeChangedSlot() == 1 && board.takeChangedSlot() == nil)
        board.add(Self.pin(2))
        #expect(board.takeChangedSlot() == 2 && board.takeChangedSlot() == nil)
        // Removing pin 0 moves the others down: slots 0 and 1 change (slot 2 is past the count now).
        #expect(board.remove(at: 0) == Self.pin(0))
        #expect(board.takeChangedSlot() == 0 && board.takeChangedSlot() == 1 && board.takeChangedSlot() == nil)
        #expect(board.remove(at: 5) == nil)
        // A full board shifting: every slot changes.
        var full = PinBoard((0..<32).map(Self.pin))
        while full.takeChangedSlot() != nil {}
        full.add(Self.pin(99))
        var sent: [Int] = []
        while let slot = full.takeChangedSlot() { sent.append(slot) }
        #expect(sent == Array(0..<32))
        full.markAllChanged()
        full.removeAll()
        #expect(full.takeChangedSlot() == nil && full.isEmpty)
    }
}
