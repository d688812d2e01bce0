#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread that reads a descriptor (a terminal's keys) until stopped: each
/// read's bytes go to `bytes`, and `ended` runs once when the input ends (end
/// of file or an error: a terminal that hung up). It waits in poll(2) on the
/// input and its own quit pipe, so `stop()` ends it at once.
public final class ReaderThread: @unchecked Sendable {
    let input: Int32
    let quit: WakeUpPipe
    let bytes: (UnsafeRawBufferPointer) -> Void
    let ended: () -> Void
    private var thread: pthread_t?

    /// Starts reading `input`; nil when no thread or pipe could be made.
    public init?(input: Int32, bytes: @escaping (UnsafeRawBufferPointer) -> Void, ended: @escaping () -> Void) {
        guard let quit = try? WakeUpPipe() else { return nil }
        self.input = input
        self.quit = quit
        self.bytes = bytes
        self.ended = ended
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<ReaderThread>.fromOpaque(context!).takeUnretainedValue().run()
            return nil
        }, Unmanaged.passUnretained(self).toOpaque())
        guard started == 0 else { return nil }
        self.thread = thread
    }

    /// Ends the thread and waits for it. Idempotent.
    public func stop() {
        guard let thread else { return }
        quit.wake()
        pthread_join(thread, nil)
        self.thread = nil
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64)
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: quit.readEnd.rawValue, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, 2, -1)
            if n < 0 && errno == EINTR { continue }
            guard n > 0, fds[1].revents == 0 else { return }
            if fds[0].revents & Int16(POLLNVAL) != 0 { return }  // the input was closed: nothing to read
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else {
                ended()
                return
            }
            buffer.withUnsafeBytes { bytes(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
