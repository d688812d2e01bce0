import SerialIO
import SystemPackage

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
    private let output: FileDescriptor

    /// Starts `tiltsim ARGUMENTS` and waits (at most `timeout`) for the
    /// pty path it prints first.
    init(arguments: [String], timeout: Duration = .seconds(120)) throws(Failure) {
        let program = Self.locate()
        let ends: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            ends = try FileDescriptor.pipe(options: [.closeOnExec])  // only the dup2 below reaches the child
        } catch {
            throw Failure(.emulatorFailed, "cannot start tiltsim: pipe: \(error)")
        }
        // No signal blocked or ignored that we block or ignore (a stopping host blocks SIGINT: tiltsim must still hear it).
        let spawned = ProcessSpawn(defaultSignals: [.interrupt, .terminate, .hangUp, .brokenPipe, .user1, .quit],
                                   descriptors: [(ends.writeEnd.rawValue, 1)])
            .spawn(program, argv: [program] + arguments, searchPath: true)
        try? ends.writeEnd.close()
        let pid: Int32
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error):
            try? ends.readEnd.close()
            throw Failure(.emulatorFailed, error == .noSuchFileOrDirectory
                ? "cannot find tiltsim beside tiltserial or on PATH; build it (swift build --product tiltsim) or install both (make install)"
                : "cannot start \(program): \(error)")
        }
        child = ChildProcess(pid: pid)
        output = ends.readEnd
        let first = output.firstLine(timeout: timeout)
        if case .line(let path) = first, !path.isEmpty {
            serialPath = path
            return
        }
        serialPath = ""
        stop()
        throw Failure(.emulatorFailed, first == .timedOut && !stoppedEarly
            ? "tiltsim printed no port within \(timeout.components.seconds) s; its messages are above"
            : "tiltsim stopped before it opened a port; its message is above")
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
            try? output.close()
            return
        }
        child.send(.interrupt)
        let deadline = MonotonicClock.deadline(after: grace)
        while child.reapIfEnded() == nil {
            let now = MonotonicClock.now()
            if now >= deadline {
                child.send(.kill)
                child.waitUntilEnded()
                break
            }
            ChildProcess.waitForAnExit([child], timeout: .microseconds(deadline.micros(since: now)))
        }
        try? output.close()
    }
    private var stopped = false
    /// tiltsim had ended on its own when `stop` came.
    private(set) var stoppedEarly = false

    /// `tiltsim` in this executable's folder if it is there, else the bare name (PATH).
    static func locate() -> String {
        if let path = ProcessEnvironment.executablePath(), let slash = path.lastIndex(of: "/") {
            let sibling = String(path[...slash]) + "tiltsim"
            if FileStatus.isExecutable(sibling) { return sibling }
        }
        return "tiltsim"
    }
}
