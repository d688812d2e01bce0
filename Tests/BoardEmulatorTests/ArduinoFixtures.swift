import Foundation
import Testing
import TiltCore
@testable import BoardEmulator
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The fixture sketches of the glass work (Fixtures/Sketches/NAME/NAME.ino),
/// built with Hardware/sketch.mk (`make fixtures`, see `SketchFixtures`), run on an `AVRBoard`.
enum ArduinoFixtures {
    /// The ELF of sketch `name`.
    static func path(_ name: String) throws -> String {
        try SketchFixtures.built(name).get().elf
    }

    /// A free-running board with the sketch and a client on its pty (opened
    /// before the core starts, so the client sees the sketch's first bytes).
    /// `captures`: board times (µs) at which to take the display, before the core starts.
    static func start(_ name: String, motion: any MotionSource = ConstantMotionSource.faceUp, captures: [UInt64] = [],
                      configure: (inout AVRBoard.Configuration) -> Void = { _ in }) throws -> (AVRBoard, PtyPeer) {
        var configuration = AVRBoard.Configuration(firmwarePath: try path(name), pace: .freeRunning, motionSource: motion)
        configure(&configuration)
        let board = try AVRBoard(configuration)
        let client = try PtyPeer(opening: try #require(board.serialPath), terminal: .asIs, keepText: true)
        for t in captures { #expect(board.captureDisplay(atBoardMicros: t)) }
        board.start()
        return (board, client)
    }
}

extension AVRBoard {
    /// The display captured at board time `micros` (waiting at most 60 s of wall time).
    func display(at micros: UInt64) throws -> AVRDisplayFrame {
        try #require(display(atBoardMicros: micros, timeout: .seconds(60)), "no display captured at \(micros) µs")
    }
}

extension PtyPeer {
    /// The next line starting with `prefix`, split at spaces (the prefix is
    /// field 0); Arduino's println ends lines with CR LF.
    func fields(_ prefix: String, timeout: Duration = .seconds(60)) -> [String]? {
        sketchLine(timeout: timeout) { $0.hasPrefix(prefix) }?.split(separator: " ").map(String.init)
    }

    /// The next line (without CR) that satisfies `match`.
    func sketchLine(timeout: Duration = .seconds(60), where match: (String) -> Bool = { _ in true }) -> String? {
        readLine(timeout: timeout, where: match)  // readLine drops the CR
    }
}
