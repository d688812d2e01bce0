import Foundation
import Testing
import TiltCore
import TiltExitStatus
import TiltPhysics
@testable import TiltserialCommand

/// One pins file, two writers: two runs (two boards, two terminals) each
/// saving their drops, and `tiltserial pins remove` while a run goes on.
/// The last writer's list used to win: a tester's second board's pin was gone
/// without a word.
@Suite struct PinsSharedFileTests {
    static let home = Pin(item: 3, x: 238, y: 56), star = Pin(item: 2, x: 10, y: 20)
    static let tent = Pin(item: 6, x: 400, y: 90), flag = Pin(item: 1, x: 5, y: 5)

    @Test func theMergeKeepsTheOtherWritersChanges() {
        // Another run added the star; this run drops home.
        #expect(PinMerge.merged(before: [], ours: [Self.home], disk: [Self.star], capacity: 32) == [Self.star, Self.home])
        // `pins remove` took the tent out; this run, which still shows it, drops home.
        #expect(PinMerge.merged(before: [Self.tent], ours: [Self.tent, Self.home], disk: [], capacity: 32) == [Self.home])
        // This run's board let its oldest go (full): the file lets it go too; the other run's pins stay.
        #expect(PinMerge.merged(before: [Self.flag, Self.tent], ours: [Self.tent, Self.home], disk: [Self.flag, Self.star, Self.tent],
                                capacity: 32) == [Self.star, Self.tent, Self.home])
        // Two equal pins are two pins; the newest `capacity` are kept.
        #expect(PinMerge.merged(before: [], ours: [Self.home], disk: [Self.home, Self.star], capacity: 2) == [Self.star, Self.home])
    }

    static func output(_ store: PinStore, pins: [Pin] = []) throws -> RunOutput {
        try RunOutput(console: CapturedConsole().console, output: OutputOptions.none, port: "board", renderer: nil,
                      pinStore: store, pins: pins)
    }

    @Test func twoRunsOnOneFileKeepEachOthersPins() throws {
        let store = PinStore(path: tempPath("pins.json"))
        let a = try Self.output(store), b = try Self.output(store)
        #expect(try b.save([Self.star], to: store) == 0)
        #expect(try a.save([Self.home], to: store) == 1, "one pin another run saved meanwhile")
        #expect(try store.load() == [Self.star, Self.home])
        #expect(try b.save([Self.star, Self.tent], to: store) == 1)
        #expect(try store.load() == [Self.star, Self.home, Self.tent])
        #expect(try a.save([Self.home, Self.flag], to: store) == 1, "only what came since a's last save")
        #expect(try store.load() == [Self.star, Self.home, Self.tent, Self.flag])
    }

    /// A file its owner made read-only is not replaced (the rename would, even
    /// as another user): refused with the way round.
    @Test func aReadOnlyPinsFileIsNotReplaced() throws {
        let path = tempPath("pins.json")
        let store = PinStore(path: path)
        try store.save([Self.home, Self.star])
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        do {
            try store.save([Self.home])
            Issue.record("saved over a read-only file")
        } catch {
            #expect(error.code == .ioError && error.message == "\(path): is read-only; make it writable (chmod u+w) to change its pins, or pass another --pins")
        }
        let r = runTiltserial(["pins", "remove", "1", "--pins", path])
        #expect(r.code == ExitStatus.ioError.rawValue, "\(r.err)")
        #expect(try store.load() == [Self.home, Self.star])
        // A run's drop then: the new pin is said to be unsaved, with no count of
        // this board's list (which held a pin `pins remove` had taken: "keeps its 3 pins").
        let captured = CapturedConsole()
        let output = try RunOutput(console: captured.console, output: OutputOptions.none, port: "board", renderer: nil,
                                   pinStore: store, pins: [Self.home, Self.star, Self.tent])
        let tick = Tick(time: BoardTime(micros: 5_000_000), index: 1, x: Fixed(raw: 0), y: Fixed(raw: 0), recipeOffsets: nil,
                        viewportX: 0, viewportY: 0, stretch: Fixed(raw: 0), ribbonX: 0, ribbonBottom: 0,
                        engaged: false, fired: false, wiggling: false)
        output.event(.pinned(tick, Self.flag, pins: [Self.home, Self.star, Self.tent, Self.flag]))
        #expect(captured.err.contains("\(path): is read-only; make it writable (chmod u+w) to change its pins, or pass another --pins; "
                                      + "this pin is not saved: the map shows it until this run ends\n"), "\(captured.err)")
        #expect(try store.load() == [Self.home, Self.star])
    }
}
