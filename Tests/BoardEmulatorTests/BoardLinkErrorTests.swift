@testable import BoardEmulator
import Foundation
import SerialIO
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

    /// A link that still names a running board's pty is not taken over (the
    /// first board would run on where no one finds it); once that board is
    /// gone, its stale link is.
    @Test func aLinkOfARunningBoardIsNotTakenOver() throws {
        let link = ScratchSpace.folder("board-link") + "/board"
        let first = try NativeBoard(.test(link: link))
        let firstPty = try FileManager.default.destinationOfSymbolicLink(atPath: link)
        do {
            _ = try NativeBoard(.test(link: link))
            Issue.record("a second board took over the link of a running one")
        } catch {
            guard case .link(.linkInUse(let path, let holder)) = error else { throw error }
            #expect(path == link && holder.isThisProcess)
            #expect(error.description == "native board: \(link) is already the link of another board in this program; give each board a path of its own")
        }
        #expect(throws: AVRBoardError.self) { try AVRBoard(.init(firmwarePath: AVRTestFirmware.path(), linkPath: link)) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == firstPty, "the link still names the first board")

        first.stop()  // removes its link: leave a stale one, as a board killed with SIGKILL does
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: firstPty)
        let second = try NativeBoard(.test(link: link))
        defer { second.stop() }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == second.serialPath)
    }

    @Test func aLinkInUseByAnotherProgramNamesIt() {
        let holder = DeviceOpener(pid: 4242, command: "tiltsim")
        #expect(BoardLinkError(SerialError.portBusy(port: "/tmp/board", holder: holder)).description
                == "/tmp/board is the link of another board still running (tiltsim (pid 4242)); stop it (kill 4242) or pick another path")
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
