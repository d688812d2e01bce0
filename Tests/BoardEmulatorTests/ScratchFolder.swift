import Foundation
import Glibc
import Testing

/// A temporary folder of a test's own, removed when released, with the
/// special files the output tests point tiltsim at.
final class ScratchFolder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiltsim-scratch-\(getpid())-\(UUID().uuidString.prefix(8))").path

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A device node like /dev/full (every write: ENOSPC) in this folder; /dev/full
    /// itself without the right to make one (then no rename can replace it either).
    func fullDevice() -> String {
        let node = path + "/full"
        let full = dev_t(1 << 8 | 7)  // major 1, minor 7 on Linux: /dev/full's
        return mknod(node, S_IFCHR | 0o666, full) == 0 ? node : "/dev/full"
    }

    /// A FIFO named `name` in this folder.
    func fifo(_ name: String) -> String {
        let node = path + "/" + name
        #expect(mkfifo(node, 0o600) == 0)
        return node
    }

    /// The file type (S_IFCHR, S_IFIFO, S_IFREG…) at `path`; 0 when nothing is there.
    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }
}
