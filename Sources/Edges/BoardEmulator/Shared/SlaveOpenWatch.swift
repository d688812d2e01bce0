#if canImport(Glibc)
import Glibc
#endif

/// Every open and close of a pty's slave, by inotify, so a host that closes
/// the port and opens it again between two looks of the board is still seen
/// as a new one. The master's hang-up alone says only whether a host has the
/// port open at the moment it is polled: a host restarting within a batch
/// (tiltserial run again, a serial monitor reconnecting) went unseen, and an
/// Uno was not reset where its DTR would have reset it.
final class SlaveOpenWatch {
    private let descriptor: CInt
    /// Opens of the slave not yet closed, as the events told (0 at the start: the pty is new).
    private var openCount = 0
    /// Events were lost: the count is known again from the next hang-up look.
    private var recount = false
    /// Where events are read, made once: `take` runs on every pass of the board's loop.
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Watches `slavePath`; nil when inotify is unavailable (then only the hang-up is seen).
    init?(slavePath: String) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, slavePath, UInt32(IN_OPEN) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CLOSE_NOWRITE)) >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// What the events since the last look say.
    struct News {
        /// Some host opened or closed the slave (or events were lost).
        var anything = false
        /// The slave went from no opener to one meanwhile (a host came, maybe
        /// after another left), or events were lost: then it may have.
        var firstOpen = false
    }

    /// Reads the events since the last call: one `read` that finds none in the
    /// common case, where polling the master's hang-up would be another.
    func take() -> News {
        var news = News()
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { return news }
            news.anything = true
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= n {
                let (mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    news.firstOpen = true
                    recount = true
                } else if mask & UInt32(IN_OPEN) != 0 {
                    if openCount == 0 { news.firstOpen = true }
                    openCount += 1
                } else if mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_CLOSE_NOWRITE)) != 0 {
                    openCount = max(0, openCount - 1)
                }
                offset += MemoryLayout<inotify_event>.size + length
            }
        }
    }

    /// Whether the events say some host has the slave open.
    var opened: Bool { openCount > 0 }

    /// Agrees with the hang-up where it knows better: nobody has the port
    /// open, or events were lost. A host's close is told before its tty is
    /// released, so an open count of 0 beside a master not yet hung up is
    /// right, not to be made 1 (that lost the next host's open as a reset).
    func settle(connected: Bool) {
        if !connected {
            openCount = 0
        } else if recount && openCount == 0 {
            openCount = 1
        }
        recount = false
    }
}
