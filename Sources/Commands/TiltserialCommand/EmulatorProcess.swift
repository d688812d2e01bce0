#if canImport(Glibc)
import Glibc
#endif
import SerialIO

/// `tiltsim` run as a child of `tiltserial demo`: the host binary links no
/// emulator (no simavr, no libelf), it starts the one the user has. Found
/// beside this executable (a build folder, `make install`'s bin), else on PATH.
/// The child gets a process group of its own, so a Ctrl-C at the terminal
/// reaches only us: the host stops first, then the board (`stop`), and the
/// host never sees its port vanish.
final class EmulatorProcess {
    let child: ChildProcess
    /// The board's pty, as tiltsim printed it.
    let serialPath: String
    private let output: CInt

    /// Starts `tiltsim ARGUMENTS` and waits (at most `timeout`) for the
    /// pty path it prints first.
    init(arguments: [String], timeout: Duration = .seconds(120)) throws(Failure) {
        let program = Self.locate()
        var pipeEnds: [CInt] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            throw Failure(.emulatorFailed, "cannot start tiltsim: pipe: \(String(cString: strerror(errno)))")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }  // only the dup2 below reaches the child
        // No signal blocked or ignored that we block or ignore (a stopping host blocks SIGINT: tiltsim must still hear it).
        let spawned = ChildSpawn(defaultSignals: [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1, SIGQUIT], descriptors: [(pipeEnds[1], 1)])
            .spawn(program, argv: [program] + arguments, searchPath: true)
        close(pipeEnds[1])
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error):
            close(pipeEnds[0])
            throw Failure(.emulatorFailed, error.code == ENOENT
                ? "cannot find tiltsim beside tiltserial or on PATH; build it (swift build --product tiltsim) or install both (make install)"
                : "cannot start \(program): \(String(cString: strerror(error.code)))")
        }
        child = ChildProcess(pid: pid)
        output = pipeEnds[0]
        serialPath = Self.firstLine(output, timeout: timeout) ?? ""
        if serialPath.isEmpty {
            stop()
            let ended = stoppedEarly
            throw Failure(.emulatorFailed, ended
                ? "tiltsim stopped before it opened a port; its message is above"
                : "tiltsim printed no port within \(timeout.components.seconds) s; its messages are above")
        }
    }

    deinit { stop() }

    /// Ends tiltsim as Ctrl-C would (it writes its --png then), and reaps it;
    /// SIGKILL if it has not ended within `grace`. Idempotent.
    func stop(grace: Duration = .seconds(10)) {
        guard !stopped else { return }
        stopped = true
        if let ending = child.reapIfEnded() {
            stoppedEarly = true
            _ = ending
            close(output)
            return
        }
        child.send(SIGINT)
        let deadline = MonotonicClock.deadline(after: grace)
        while child.reapIfEnded() == nil {
            let now = MonotonicClock.now()
            if now >= deadline {
                child.send(SIGKILL)
                var status: Int32 = 0
                _ = waitpid(child.pid, &status, 0)
                break
            }
            ChildProcess.waitForAnExit([child], timeout: .microseconds(deadline.micros(since: now)))
        }
        close(output)
    }
    private var stopped = false
    /// tiltsim had ended on its own when `stop` came.
    private(set) var stoppedEarly = false

    /// `tiltsim` in this executable's folder if it is there, else the bare name (PATH).
    static func locate() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = path.lastIndex(of: "/") {
                let sibling = String(path[...slash]) + "tiltsim"
                if access(sibling, X_OK) == 0 { return sibling }
            }
        }
        return "tiltsim"
    }

    /// The first line on `fd`, waiting at most `timeout`; nil at EOF or timeout.
    static func firstLine(_ fd: CInt, timeout: Duration) -> String? {
        var line: [UInt8] = []
        let deadline = MonotonicClock.deadline(after: timeout)
        var byte: UInt8 = 0
        while line.count < 4096 {
            let now = MonotonicClock.now()
            guard now < deadline else { return nil }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: deadline.micros(since: now) / 1000 + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }
}
