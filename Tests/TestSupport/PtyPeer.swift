import Foundation
import Glibc
import SerialIO
import SystemPackage
import TiltCore
import WireProtocol

/// The one test-side peer on a pty: whichever end the test plays (the board's
/// master, or a host or client on the slave path), it sends bytes or frames and
/// reads with a deadline (poll, never sleeping), keeping the bytes as text
/// lines and the frames a `FrameDecoder` finds in them.
public final class PtyPeer {
    /// The pty this peer created and owns (the board's side); nil when it opened someone else's.
    public let pty: PseudoTerminal?
    /// The end this peer reads and writes.
    public let port: any SerialTransport
    /// Decodes what arrives; frames go to `frames`.
    public var decoder = FrameDecoder()
    /// Every frame decoded so far (unless `keepFrames` is false).
    public var frames: [Frame] = []
    /// False: decode (for `lastSampleTime`) but keep nothing, for long runs.
    public var keepFrames = true
    /// Everything received since the last `readLine` took it, as bytes.
    public private(set) var unread: [UInt8] = []
    /// Everything received, as text (kept only when `keepText`).
    public private(set) var text = ""
    /// Whether to keep `text` and `unread` (off for binary streams).
    public var keepText: Bool
    /// True once the other side went away (EOF, EIO, hang-up).
    public private(set) var gone = false
    /// The unwrapped board time of the last SAMPLE decoded (0 before any).
    public private(set) var lastSampleTime: UInt64 = 0
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// The board's side: a new pty whose slave is linked at `link` for the host to open.
    /// `keepSlaveOpen`: see `PseudoTerminal.open` (false: the host's close is a hang-up).
    public init(boardAt link: String, keepSlaveOpen: Bool = true, keepText: Bool = false) throws {
        let pty = try PseudoTerminal.open(keepSlaveOpen: keepSlaveOpen, link: link)
        self.pty = pty
        port = pty.master
        self.keepText = keepText
    }

    /// How `init(opening:)` sets the terminal up.
    public enum Terminal {
        /// Raw (cfmakeraw) at the given baud (115200 unless told) through `TermiosTransport`: bytes pass unchanged.
        case raw
        /// Opened with open(2) and left as the pty's creator set it.
        case asIs
    }

    /// A host or client on someone else's pty (or serial device) at `path`.
    /// `baud`: the line's rate in `.raw` (an emulated board at another rate reads as garbage, as a real one).
    public init(opening path: String, terminal: Terminal = .raw, baud: Int = 115_200, keepText: Bool = false) throws {
        pty = nil
        self.keepText = keepText
        switch terminal {
        case .raw:
            port = try TermiosTransport.open(PortPath.resolve(path), baud: baud,
                                             options: SerialOptions(dtr: .leave, exclusive: false, backend: .termios))
        case .asIs:
            // Close-on-exec: a child another test spawns meanwhile would keep the port open after `close()`.
            let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw PeerError("cannot open \(path): errno \(errno)") }
            port = TermiosTransport(adopting: FileDescriptor(rawValue: fd), name: path, writeTimeout: .seconds(10))
        }
    }

    deinit { close() }

    /// Closes this peer's end (the whole pty when it owns one). Harmless twice.
    public func close() {
        if let pty { pty.close() } else { port.close() }
    }

    /// Writes all of `bytes` (bounded by the transport's write timeout).
    public func send(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try port.write($0) }
    }

    /// Writes one frame's encoding.
    public func send(_ frame: some WireFrame) throws { try send(frame.encoded()) }

    /// Sends in pieces, reading between them, so neither side's buffer fills while the other is busy.
    public func sendChunked(_ bytes: [UInt8], chunk: Int = 2048) throws {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            try send(Array(bytes[start..<end]))
            try readAvailable()
            start = end
        }
    }

    /// Reads whatever has arrived (never waits), stopping early once `done` holds; the byte count.
    @discardableResult
    public func readAvailable(stoppingWhen done: (PtyPeer) -> Bool = { _ in false }) throws -> Int {
        var total = 0
        while !gone, !done(self) {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
            } catch SerialError.deviceGone(_) {
                gone = true
                break
            } catch SerialError.ioError(_, _, _) where pty == nil {
                gone = true  // EIO on a slave: the master went away
                break
            }
            if n == 0 { break }
            total += n
            take(buffer[0..<n])
        }
        return total
    }

    private func take(_ bytes: ArraySlice<UInt8>) {
        if keepText {
            unread.append(contentsOf: bytes)
            text += String(decoding: bytes, as: UTF8.self)
        }
        decoder.feed(bytes) { frame in
            if case .sample(let s) = frame { lastSampleTime = s.timeMicros }
            if keepFrames { frames.append(frame) }
        }
    }

    /// Reads until `done` holds, the other side goes away, or `timeout` passes; whether `done` held.
    @discardableResult
    public func read(timeout: Duration = .seconds(20), until done: (PtyPeer) -> Bool) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !done(self) {
            let left = deadline - ContinuousClock.now
            if left <= .zero || gone { return done(self) }
            if try port.waitReadable(timeout: min(left, .milliseconds(100))) {
                try readAvailable(stoppingWhen: done)
            }
        }
        return true
    }

    /// The next line (without "\n" or "\r\n"), or nil at the deadline, on hang-up or on a read error. Needs `keepText`.
    public func readLine(timeout: Duration = .seconds(10)) -> String? {
        precondition(keepText, "readLine needs keepText")
        guard (try? read(timeout: timeout, until: { $0.unread.contains(UInt8(ascii: "\n")) })) == true else { return nil }
        let newline = unread.firstIndex(of: UInt8(ascii: "\n"))!
        var line = unread[..<newline]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        unread.removeSubrange(...newline)
        return String(decoding: line, as: UTF8.self)
    }

    /// Reads lines until one satisfies `match`; nil at the deadline.
    public func readLine(timeout: Duration = .seconds(10), where match: (String) -> Bool) -> String? {
        let deadline = ContinuousClock.now + timeout
        while let line = readLine(timeout: deadline - ContinuousClock.now) {
            if match(line) { return line }
        }
        return nil
    }

    /// Everything received as text once `marker` has arrived; nil at the deadline, on hang-up or on a read error. Needs `keepText`.
    public func text(until marker: String, timeout: Duration = .seconds(60)) -> String? {
        precondition(keepText, "text(until:) needs keepText")
        return (try? read(timeout: timeout) { $0.text.contains(marker) }) == true ? text : nil
    }

    // MARK: The frames by kind

    /// The SAMPLE frames received.
    public var samples: [TimedSample] { frames.compactMap { if case .sample(let s) = $0 { s } else { nil } } }
    /// The HELLO frames received.
    public var hellos: [HelloFrame] { frames.compactMap { if case .hello(let h) = $0 { h } else { nil } } }
    /// The PONG frames received.
    public var pongs: [PongFrame] { frames.compactMap { if case .pong(let p) = $0 { p } else { nil } } }
    /// The PARTS frames received.
    public var parts: [PartsFrame] { frames.compactMap { if case .parts(let p) = $0 { p } else { nil } } }
    /// The OFFSETS frames received (the host's side of the conversation).
    public var offsets: [OffsetsFrame] { frames.compactMap { if case .offsets(let o) = $0 { o } else { nil } } }
    /// How many HOST_HELLO frames arrived.
    public var hostHellos: Int { frames.filter { if case .hostHello = $0 { true } else { false } }.count }
    /// How many DESCRIBE frames arrived.
    public var describes: Int { frames.filter { if case .describe = $0 { true } else { false } }.count }
}

/// A test peer's failure, one line.
public struct PeerError: Error, CustomStringConvertible {
    /// What went wrong and where.
    public let description: String
    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
