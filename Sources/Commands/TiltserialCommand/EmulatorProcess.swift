import SerialIO
import Synchronization
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
    private let ending = Mutex((stopping: false, endedOnItsOwn: false))
    private var watcher: ReaderThread?

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

    /// Calls `onEnd` (on a thread of its own) if tiltsim ends before `stop`:
    /// its stdout, which it keeps open after the pty line, reaches end of
    /// file only when it ends. The demo then stops with an error, rather than
    /// wait for a board that is gone (and whose pty number the next program
    /// to open a pty gets).
    func watch(onEnd: @escaping @Sendable () -> Void) {
        watcher = ReaderThread(input: output.rawValue, bytes: { _ in }, ended: { [weak self] in
            guard let self else { return }
            let onItsOwn = ending.withLock { state in
                state.endedOnItsOwn = !state.stopping
                return state.endedOnItsOwn
            }
            if onItsOwn { onEnd() }
        })
    }

    /// Whether tiltsim ended on its own while watched (before `stop`).
    var endedOnItsOwn: Bool { ending.withLock { $0.endedOnItsOwn } }

    /// How tiltsim ended, once `stop` reaped it.
    private(set) var exit: ChildProcess.Ending?

    /// Ends tiltsim as Ctrl-C would (it writes its --png then), and reaps it;
    /// SIGKILL if it has not ended within `grace`. Idempotent.
    func stop(grace: Duration = .seconds(10)) {
        guard !stopped else { return }
        stopped = true
        ending.withLock { $0.stopping = true }
        defer {
            watcher?.stop()  // before the descriptor it polls is closed
            watcher = nil
            try? output.close()
        }
        if let ended = child.reapIfEnded() {
            stoppedEarly = true
            exit = ended
            return
        }
        // A child that ended on its own may not be reapable yet (its stdout closes
        // before it is a zombie): how it ended is kept from the reap below too.
        child.send(.interrupt)
        let deadline = MonotonicClock.deadline(after: grace)
        while true {
            if let ended = child.reapIfEnded() {
                exit = ended
                break
            }
            let now = MonotonicClock.now()
            if now >= deadline {
                child.send(.kill)
                child.waitUntilEnded()
                exit = .signalled(Signal.kill.rawValue)
                break
            }
            ChildProcess.waitForAnExit([child], timeout: .microseconds(deadline.micros(since: now)))
        }
    }
    private var stopped = false
    /// tiltsim had ended on its own when `stop` came.
    private(set) var stoppedEarly = false

    /// "exit code 1", "killed by signal 9": how tiltsim ended, for a message.
    var exitDescription: String {
        switch exit {
        case .exited(let code)?: "exit code \(code)"
        case .signalled(let signal)?: "killed by signal \(signal)"
        case nil: "ended"
        }
    }

    /// `tiltsim` in this executable's folder if it is there, else the bare name (PATH).
    static func locate() -> String {
        if let path = ProcessEnvironment.executablePath(), let slash = path.lastIndex(of: "/") {
            let sibling = String(path[...slash]) + "tiltsim"
            if FileStatus.isExecutable(sibling) { return sibling }
        }
        return "tiltsim"
    }
}
