import Foundation
import Glibc
import TestSupport
import Testing

/// The live view as a terminal shows it: the real `tiltserial` against the
/// emulated board (`tiltsim --engine native`), inside a detached tmux session
/// of a given size, read back with `tmux capture-pane`. Every wait is on the
/// screen's content (polled, generous timeouts), never a sleep.
@Suite(.serialized) struct TerminalViewTests {
    /// Where SwiftPM put the executables built with the tests.
    static let products = Bundle.main.bundleURL

    @Test(arguments: [(80, 24, "braille"), (100, 40, "quadrants"), (140, 45, "halfBlocks")])
    func theViewFitsWithTheBoardAndTheStatus(columns: Int, rows: Int, density: String) throws {
        let sim = try Simulator()
        defer { sim.stop() }
        let tmux = try Tmux()
        defer { tmux.stop() }
        try tmux.start(columns: columns, rows: rows, command: "\(Self.tiltserial) \(sim.link); echo done; cat")
        let screen = try #require(tmux.waitFor { Self.running($0) }, "the view with a rate: \(tmux.capture().joined(separator: "\n"))")

        #expect(screen.count == rows, "capture-pane -J joins wrapped lines: as many lines as rows means none wrapped")
        for line in screen { #expect(line.unicodeScalars.count <= columns, "wider than \(columns): \(line)") }
        #expect(screen[0].contains("rate ") && screen[0].contains("lost 0") && screen[0].contains("errors 0"), "status first: \(screen[0])")

        let (boardColumns, boardRows, glyphs): (Int, Int, ClosedRange<UInt32>) = switch density {
        case "braille": (64, 16, 0x2800...0x28FF)
        case "quadrants": (64, 32, 0x2596...0x259F)
        default: (128, 32, 0x2580...0x2584)
        }
        let top = try #require(screen.firstIndex { $0.hasPrefix("┌" + String(repeating: "─", count: boardColumns) + "┐") }, "the board's top edge")
        let bottom = try #require(screen.firstIndex { $0.hasPrefix("└" + String(repeating: "─", count: boardColumns) + "┘") }, "its bottom edge")
        #expect(bottom - top - 1 == boardRows, "the whole board, \(boardRows) rows")
        let cells = screen[(top + 1)..<bottom].flatMap { $0.unicodeScalars.dropFirst().prefix(boardColumns) }
        #expect(cells.contains { glyphs.contains($0.value) }, "drawn in \(density)")
        let text = screen.joined(separator: "\n")
        #expect(text.contains("pitch") && text.contains("roll") && text.contains("ax"), "the sensor panel")

        tmux.keys("q")
        let after = try #require(tmux.waitFor { $0.contains("done") }, "q quits: \(tmux.capture().joined(separator: "\n"))")
        #expect(after.contains { $0.hasPrefix("tiltserial: stopped: ") })
        #expect(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1", "the normal screen and the cursor are back")
    }

    @Test func aResizeRedrawsAtTheNewSize() throws {
        let sim = try Simulator()
        defer { sim.stop() }
        let tmux = try Tmux()
        defer { tmux.stop() }
        try tmux.start(columns: 80, rows: 24, command: "\(Self.tiltserial) \(sim.link); echo done; cat")
        #expect(tmux.waitFor { Self.running($0) && $0.contains { $0.hasPrefix("┌" + String(repeating: "─", count: 64) + "┐ ") } } != nil)
        tmux.resize(columns: 140, rows: 45)
        let wide = tmux.waitFor { $0.contains { $0.hasPrefix("┌" + String(repeating: "─", count: 128) + "┐") } }
        #expect(wide?.count == 45 && wide?.allSatisfy { $0.unicodeScalars.count <= 140 } == true)
        tmux.resize(columns: 80, rows: 24)
        let narrow = tmux.waitFor { $0.contains { $0.hasPrefix("┌" + String(repeating: "─", count: 64) + "┐ ") } && Self.running($0) }
        #expect(narrow?.count == 24 && narrow?.allSatisfy { $0.unicodeScalars.count <= 80 } == true)
        tmux.keys("q")
        #expect(tmux.waitFor { $0.contains("done") } != nil)
    }

    /// `c` sets the rest pose; `q` and Ctrl-C leave the terminal as they found it
    /// (canonical mode and echo back on, seen by `stty` run after tiltserial in
    /// the same shell, which does not touch the terminal's modes itself).
    @Test(arguments: ["q", "C-c"])
    func keysWorkAndTheTerminalIsRestored(quit: String) throws {
        let sim = try Simulator()
        defer { sim.stop() }
        let tmux = try Tmux()
        defer { tmux.stop() }
        let modes = #"stty -a | tr ' ' '\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\n' ' '"#
        try tmux.start(columns: 80, rows: 24, command: #"trap "echo interrupted" INT; \#(Self.tiltserial) \#(sim.link); echo "exit $?"; echo "modes $(\#(modes))"; cat"#)
        #expect(tmux.waitFor { Self.running($0) && $0.contains { $0.contains("q quit") && $0.contains("c set rest pose") } } != nil, "the keys are shown")
        tmux.keys("c")
        #expect(tmux.waitFor { $0.contains { $0.hasPrefix("rest pose set to the current pose: ") } } != nil,
                "c takes the pose: \(tmux.capture().joined(separator: "\n"))")
        tmux.keys(quit)
        let after = try #require(tmux.waitFor { $0.contains { $0.hasPrefix("modes ") } })
        #expect(after.contains("exit 0"))
        #expect(after.contains { $0.hasPrefix("modes icanon echo") }, "\(after)")
        #expect(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    /// Ctrl-Z gives the terminal back; `fg` takes it again and the keys still work.
    @Test func suspendAndResume() throws {
        let sim = try Simulator()
        defer { sim.stop() }
        let tmux = try Tmux()
        defer { tmux.stop() }
        try tmux.start(columns: 80, rows: 24, command: "PS1='$ ' bash --norc --noprofile -i")
        tmux.keys("\(Self.tiltserial) \(sim.link)", "Enter")
        #expect(tmux.waitFor { Self.running($0) } != nil)
        tmux.keys("C-z")
        #expect(tmux.waitFor { $0.contains { $0.contains("Stopped") } } != nil)
        #expect(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
        tmux.keys("fg", "Enter")
        #expect(tmux.waitFor { Self.running($0) && $0.contains { $0.hasPrefix("└") } } != nil, "back after fg")
        #expect(tmux.display("#{alternate_on}") == "1")
        tmux.keys("q")  // no Enter: key mode is back too
        #expect(tmux.waitFor { $0.contains { $0.hasPrefix("tiltserial: stopped: ") } } != nil)
    }

    /// A stop from outside (`kill -STOP`, which the view cannot catch) and
    /// `fg`: bash put the terminal back in line mode meanwhile, and the view
    /// read keys a line at a time (q did nothing until Enter, an outside
    /// tester's). SIGCONT takes key mode back.
    @Test func aStopFromOutsideAndFgTakeKeyModeBack() throws {
        let sim = try Simulator()
        defer { sim.stop() }
        let tmux = try Tmux()
        defer { tmux.stop() }
        try tmux.start(columns: 80, rows: 24, command: "PS1='$ ' exec bash --norc --noprofile -i")  // exec: the pane's pid is bash
        tmux.keys("\(Self.tiltserial) \(sim.link)", "Enter")
        #expect(tmux.waitFor { Self.running($0) } != nil)
        let shell = try #require(pid_t(tmux.display("#{pane_pid}")))
        let view = try #require(Self.child(of: shell), "tiltserial under the pane's shell")
        kill(view, SIGSTOP)
        #expect(tmux.waitFor { $0.contains { $0.contains("Stopped") } } != nil)
        tmux.keys("fg", "Enter")
        #expect(tmux.waitFor { Self.running($0) && $0.contains { $0.hasPrefix("└") } } != nil, "back after fg")
        tmux.keys("q")  // no Enter: key mode is back
        #expect(tmux.waitFor(seconds: 30) { $0.contains { $0.hasPrefix("tiltserial: stopped: ") } } != nil,
                "q without Enter ends the run: \(tmux.capture().joined(separator: "\n"))")
    }

    /// The first process whose parent is `parent` (/proc/PID/stat's fourth field).
    static func child(of parent: pid_t) -> pid_t? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for entry in entries {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == parent { return pid }
        }
        return nil
    }

    static var tiltserial: String { products.appendingPathComponent("tiltserial").path }

    /// The view is up and samples are flowing.
    static func running(_ screen: [String]) -> Bool {
        guard let status = screen.first, let range = status.range(of: "rate ") else { return false }
        return status[range.upperBound...].first.map { ("1"..."9").contains($0) } ?? false
    }
}

/// `tiltsim --engine native` on a pty behind a symlink of its own.
final class Simulator {
    let child: Child
    let link: String

    init() throws {
        link = ScratchSpace.folder("view") + "/board"
        let tiltsim = TerminalViewTests.products.appendingPathComponent("tiltsim").path
        child = try Child([tiltsim, "--engine", "native", "--motion", "tour", "--link", link])
        // tiltsim prints the pty's path once the board (and the link) is up.
        let line = child.firstLine()
        guard line.hasPrefix("/dev/pts/"), (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil else {
            stop()
            throw E2EFailure("tiltsim did not start: \(line)")
        }
    }

    /// Ctrl-C, as a person stops it; SIGKILL if it is still there after 30 s.
    func stop() {
        kill(child.pid, SIGINT)
        if !child.wait(seconds: 30) {
            kill(child.pid, SIGKILL)
            _ = child.wait(seconds: 30)
        }
        child.close()
    }
}

/// A child process started with posix_spawn: stdin and stderr on /dev/null,
/// stdout on a pipe, no signal blocked or ignored (a test's thread blocks
/// some, and a child would inherit that: tiltsim would never see its Ctrl-C),
/// and, with `closeOthers`, no descriptor of this process but those three
/// (a python3 one-liner closes the rest and execs): a daemon such as the tmux
/// server keeps every descriptor it inherits for its whole life, other tests'
/// pipes and the ones Foundation's Process watches to see its children end.
final class Child {
    let pid: pid_t
    private(set) var output: Int32

    init(_ arguments: [String], closeOthers: Bool = false) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw E2EFailure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let closeAndRun = "import os, sys; os.closerange(3, 1 << 16); os.execvp(sys.argv[1], sys.argv[1:])"
        let argv = ((closeOthers ? ["python3", "-c", closeAndRun] : []) + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, environ)
        Glibc.close(fds[1])
        guard spawned == 0 else {
            Glibc.close(fds[0])
            throw E2EFailure("cannot start \(arguments[0]): error \(spawned)")
        }
        self.pid = pid
        output = fds[0]
    }

    /// Reads stdout up to its first newline (blocking).
    func firstLine() -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(output, &byte, 1) == 1 && byte != 10 { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads stdout to its end (every holder closed it).
    func readAll() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(output, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits for the exit, polling waitpid every 20 ms (it has no timeout); false after `seconds`.
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let r = waitpid(pid, nil, WNOHANG)
            if r == pid || (r < 0 && errno == ECHILD) { return true }
            usleep(20_000)
        } while Date() < deadline
        return false
    }

    /// The exit status (blocking).
    func status() -> Int32 {
        var status: Int32 = -1
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    func close() {
        if output >= 0 { Glibc.close(output) }
        output = -1
    }
}

/// A tmux server of its own (its own socket), with one detached session.
final class Tmux {
    let socket: String
    static let session = "view"

    init() throws {
        socket = ScratchSpace.path("tmux")
    }

    /// Runs a tmux command: its exit status and stdout. The one that starts
    /// the server passes it no descriptor but stdin, stdout and stderr (`Child`).
    @discardableResult
    func run(_ arguments: [String], startsServer: Bool = false) -> (code: Int32, out: String) {
        guard let child = try? Child(["tmux", "-S", socket, "-f", "/dev/null"] + arguments, closeOthers: startsServer) else { return (-1, "") }
        defer { child.close() }
        let out = child.readAll()  // EOF once the client exits (the server it starts daemonizes onto /dev/null)
        return (child.status(), out)
    }

    /// A detached session of `columns` × `rows` running `command` in sh, with
    /// config and state folders of its own: tiltserial there neither reads the
    /// user's config nor marks the user's first-run notice as shown.
    func start(columns: Int, rows: Int, command: String) throws {
        let home = socket + "-xdg"
        let isolated = "export XDG_CONFIG_HOME='\(home)/config' XDG_STATE_HOME='\(home)/state'; " + command
        let result = run(["new-session", "-d", "-s", Self.session, "-x", String(columns), "-y", String(rows), "sh", "-c", isolated],
                         startsServer: true)
        guard result.code == 0 else { throw E2EFailure("tmux new-session failed (\(result.code)); is tmux installed? (scripts/install-deps)") }
    }

    /// The screen, one string per row, trailing spaces cut; `join`: wrapped lines joined into one (-J).
    func capture(join: Bool = true) -> [String] {
        let out = run(["capture-pane", "-p"] + (join ? ["-J"] : []) + ["-t", Self.session]).out
        var lines = out.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines.map { line in
            var l = line
            while l.hasSuffix(" ") { l.removeLast() }
            return l
        }
    }

    /// Polls the screen until `predicate` holds; nil after `seconds`.
    func waitFor(seconds: Double = 90, _ predicate: ([String]) -> Bool) -> [String]? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let screen = capture()
            if predicate(screen) { return screen }
            usleep(50_000)  // the poll interval, not a synchronization: the loop waits for the content
        }
        return nil
    }

    func keys(_ keys: String...) { run(["send-keys", "-t", Self.session] + keys) }
    func resize(columns: Int, rows: Int) { run(["resize-window", "-t", Self.session, "-x", String(columns), "-y", String(rows)]) }
    func display(_ format: String) -> String {
        run(["display-message", "-p", "-t", Self.session, format]).out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        run(["kill-server"])
        try? FileManager.default.removeItem(atPath: socket)
        try? FileManager.default.removeItem(atPath: socket + "-xdg")
    }
}
