#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A person's answer, a line from stdin, that Ctrl-C also ends: `readLine()`
/// would sit in read(2) while the handler woke the stop pipe, so setup's
/// prompt died by the signal (exit 130, the test pattern left on the glass)
/// instead of ending as `q` does.
public enum PromptLine {
    /// The line without its newline; nil at end of input or once `stop` is woken.
    public static func read(stopping stop: WakeUpPipe) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stop.readEnd.rawValue, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, fds[1].revents == 0 else { return nil }
            let n = Glibc.read(0, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }
}
