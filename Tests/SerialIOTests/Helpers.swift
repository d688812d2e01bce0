import CPtyInterposer
import Foundation
import SerialIO
import TestSupport
import Testing

/// Reads exactly `count` bytes, waiting on poll (never sleeping); fails after `timeout` of silence.
func readExactly(_ t: any SerialTransport, count: Int, timeout: Duration = .seconds(5)) throws -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(count)
    var chunk = [UInt8](repeating: 0, count: 4096)
    while out.count < count {
        guard try t.waitReadable(timeout: timeout) else {
            Issue.record("timed out after \(out.count) of \(count) bytes")
            return out
        }
        let n = try chunk.withUnsafeMutableBytes { try t.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<min($0.count, count - out.count)])) }
        out += chunk[..<n]
    }
    return out
}

func write(_ t: any SerialTransport, _ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try t.write($0) }
}

/// Pseudo-random but reproducible bytes covering all 256 values.
func testBytes(_ count: Int, seed: UInt32 = 0x9E37_79B9) -> [UInt8] {
    var x = seed
    return (0..<count).map { _ in
        x ^= x << 13; x ^= x >> 17; x ^= x << 5
        return UInt8(truncatingIfNeeded: x)
    }
}

/// A fresh temporary directory, removed by the caller with `removeTree`.
func makeTempDir() throws -> String {
    let path = NSTemporaryDirectory() + "serialio-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func removeTree(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

/// The name trick that lets libserialport 0.1.1 accept a pty: it looks "/dev/X" up as
/// "/sys/class/tty/X". With X = "../../../tmp/dir/link" both "/dev/../../../tmp/dir/link"
/// and "/sys/class/tty/../../../tmp/dir/link" are the same absolute symlink, which
/// points at the pty slave: the lookup finds a symlink (as for real ttys) and open(2)
/// follows it to the pty.
func libserialportName(forLink link: String) -> String {
    precondition(link.hasPrefix("/"))
    return "/dev/../../.." + link
}

/// The board's peer (TestSupport's PtyPeer) linked under a temp dir, for libserialport; cleans up in `close`.
final class PtyFixture {
    let board: PtyPeer
    let dir: String
    let link: String
    var pty: PseudoTerminal { board.pty! }

    init(keepSlaveOpen: Bool = true) throws {
        dir = try makeTempDir()
        link = dir + "/board"
        board = try PtyPeer(boardAt: link, keepSlaveOpen: keepSlaveOpen)
    }

    /// Opens the slave through libserialport (with the interposer faking modem lines).
    func openWithLibSerialPort(options: SerialOptions = SerialOptions()) throws(SerialError) -> LibSerialPortTransport {
        let port = try PortPath.resolve(link)
        return try LibSerialPortTransport.open(
            portName: libserialportName(forLink: link), port: port, baud: 115_200, options: options)
    }

    func close() {
        board.close()
        removeTree(dir)
    }
}

/// Runs `body` on a dedicated thread and waits for it (bounded), for the side of a
/// test that must block while the test's own thread does the other side.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> () throws -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, any Error>? = nil
    let thread = Thread {
        result = Result { try body() }
        done.signal()
    }
    thread.start()
    return {
        guard done.wait(timeout: .now() + 20) == .success else { throw ThreadTimeout() }
        return try result!.get()
    }
}

struct ThreadTimeout: Error {}

/// Runs `body` with this thread's filesystem uid/gid switched to nobody (see CPtyInterposer).
func asUnprivilegedUser<T>(_ body: () -> T) -> T? {
    var value: T? = nil
    let box = ClosureBox()
    withoutActuallyEscaping(body) { body in
        box.run = { value = body() }
        let context = Unmanaged.passUnretained(box).toOpaque()
        let err = cpty_run_with_fs_ids(65534, 65534, { raw in
            Unmanaged<ClosureBox>.fromOpaque(raw!).takeUnretainedValue().run()
        }, context)
        if err != 0 { value = nil }
        box.run = {}
    }
    return value
}

final class ClosureBox { var run: () -> Void = {} }
