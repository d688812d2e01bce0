#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// posix_spawn set up the way every child of tiltserial needs it (hooks, the
/// `demo` board), the one spawner: a process group of its own (a Ctrl-C at the terminal reaches
/// only us; we signal the group), no blocked signal, and the listed signals
/// back to their default action (ignored signals survive exec).
public struct ProcessSpawn {
    /// Signals the child starts with at their default action.
    public var defaultSignals: [Signal]
    /// (our descriptor, the child's): dup2'd in the child, in order.
    public var descriptors: [(CInt, CInt)] = []
    /// The child's stdin is /dev/null.
    public var stdinFromDevNull = false
    /// Close every descriptor from 3 up in the child (glibc 2.34+; without it
    /// only O_CLOEXEC protects ours, which all of ours set).
    public var closeTheRest = false
    /// "NAME=value" entries; nil: ours.
    public var environment: [String]? = nil

    /// A spawn set-up: `defaultSignals` reset in the child, then the rest as described above.
    public init(defaultSignals: [Signal], descriptors: [(CInt, CInt)] = [], stdinFromDevNull: Bool = false,
                closeTheRest: Bool = false, environment: [String]? = nil) {
        self.defaultSignals = defaultSignals
        self.descriptors = descriptors
        self.stdinFromDevNull = stdinFromDevNull
        self.closeTheRest = closeTheRest
        self.environment = environment
    }

    /// Starts `program` with `argv` (`searchPath`: a program named without a
    /// slash is looked up on PATH, posix_spawnp); the child's pid, or the errno
    /// (glibc reports a failed exec here, not as a child exiting 127).
    public func spawn(_ program: String, argv: [String], searchPath: Bool = false) -> Result<Int32, Errno> {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if stdinFromDevNull { posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0) }
        for (ours, theirs) in descriptors { posix_spawn_file_actions_adddup2(&actions, ours, theirs) }
        if closeTheRest { _ = Self.addCloseFrom.map { $0(&actions, 3) } }
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&none)
        for signal in defaultSignals { sigaddset(&defaults, signal.rawValue) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            cArgv.forEach { free($0) }
            cEnv?.forEach { free($0) }
        }
        var pid: pid_t = 0
        let env = cEnv ?? []
        let status = env.withUnsafeBufferPointer { envBuffer in
            let envp = cEnv == nil ? environ : UnsafeMutablePointer(mutating: envBuffer.baseAddress!)
            return searchPath && !program.contains("/")
                ? posix_spawnp(&pid, program, &actions, &attributes, cArgv, envp)
                : posix_spawn(&pid, program, &actions, &attributes, cArgv, envp)
        }
        return status == 0 ? .success(pid) : .failure(Errno(rawValue: status))
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np when this glibc has it (2.34+).
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt).self)
    }()
}
