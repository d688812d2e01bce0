@testable import BoardEmulator
import Foundation
import TestSupport
import Testing

/// The two engines meet the same failures at their end of the cable: each
/// has one message, which the native board only prefixes with its name.
@Suite struct BoardLinkErrorTests {
    /// A regular file where the link should go is never replaced (PtyLink).
    @Test func aLinkOverARealFileIsRefusedWithOneMessageByBothEngines() throws {
        let file = tempFile("not-a-link")
        let expected = BoardLinkError.cannotLink(path: file, errno: .fileExists)
        let line = "cannot link \(file) to the board's pty (File exists); pick a path in a writable directory, not an existing file"
        #expect(expected.description == line)

        #expect(throws: AVRBoardError.link(expected)) { try AVRBoard(.init(firmwarePath: AVRTestFirmware.path(), linkPath: file)) }
        do {
            _ = try NativeBoard(.test(link: file))
            Issue.record("a native board linked over \(file)")
        } catch {
            guard case .link(let link) = error else { throw error }
            #expect(link == expected)
            #expect(error.description == "native board: " + line)
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me", "the file is left alone")
    }

    @Test func plugInOnAStoppedNativeBoardSaysSo() throws {
        let board = try NativeBoard(.test())
        board.stop()
        #expect(throws: BoardLinkError.stopped) { try board.plugIn() }
        #expect(BoardLinkError.stopped.description == "the board is stopped; make a new one")
    }

    func tempFile(_ name: String) -> String {
        let path = ScratchSpace.folder("board-link") + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8))
        return path
    }
}
