import Foundation
import Glibc

/// One folder of this test process's own under the temporary directory, for
/// every file, link and socket a test makes; removed when the process exits,
/// so a suite run leaves nothing behind in /tmp (`make test` checks it:
/// scripts/check-test-scratch).
public enum ScratchSpace {
    /// The folder, made on first use: `tiltserial-tests-PID-XXXXXXXX`, short
    /// enough for a unix socket's path below it.
    public static let root: String = {
        let path = NSTemporaryDirectory() + "tiltserial-tests-\(getpid())-" + UUID().uuidString.prefix(8)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ScratchSpace.root) }
        return path
    }()

    /// A new empty folder `root/PREFIX-XXXXXXXX`.
    public static func folder(_ prefix: String) -> String {
        let path = root + "/" + prefix + "-" + UUID().uuidString.prefix(8)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    /// A path `root/PREFIX-XXXXXXXX` nothing exists at yet.
    public static func path(_ prefix: String) -> String {
        root + "/" + prefix + "-" + UUID().uuidString.prefix(8)
    }
}
