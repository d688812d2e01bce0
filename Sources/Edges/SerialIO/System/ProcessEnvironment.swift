#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSerialShims

/// This process as the C library sees it: its environment, its executable,
/// its exit, for code that may not import the C library (Commands).
public enum ProcessEnvironment {
    /// The variable `name` from our environment (getenv); nil when unset.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) }
    }

    /// Our environment as "NAME=value" entries, in order (environ).
    public static func entries() -> [String] {
        var result: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            result.append(String(cString: entry))
            pointer += 1
        }
        return result
    }

    /// The running executable's path (/proc/self/exe); nil when it cannot be read.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Ends the process with `code` (exit(3): buffers flushed, atexit handlers run).
    public static func exit(_ code: Int32) -> Never { Glibc.exit(code) }

    /// Asks the kernel for `signal` when our parent ends, however it ends
    /// (prctl PR_SET_PDEATHSIG), and raises it now if the parent is gone
    /// already (we were re-parented to init). The kernel watches the thread
    /// that asked: call it from the main thread.
    public static func signalWhenParentEnds(_ signal: Signal) {
        _ = cserial_set_parent_death_signal(signal.rawValue)
        if getppid() == 1 { signal.raise() }
    }
}
