import Foundation
import SerialIO
import Testing

/// tiltsim's boards found from /proc (a fake one here): their `--link`s,
/// relative to each tiltsim's folder, numbered with `--boards N`, while they
/// still name a pty; other programs and stale links are left out.
@Suite struct EmulatedLinksTests {
    @Test func runningTiltsimsAreFoundByTheirLinks() throws {
        let root = tempPath("proc"), work = tempPath("work")
        let fm = FileManager.default
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        func process(_ pid: Int, _ words: [String], cwd: String = "/") throws {
            try fm.createDirectory(atPath: "\(root)/\(pid)", withIntermediateDirectories: true)
            try Data((words.joined(separator: "\0") + "\0").utf8).write(to: URL(fileURLWithPath: "\(root)/\(pid)/cmdline"))
            try fm.createSymbolicLink(atPath: "\(root)/\(pid)/cwd", withDestinationPath: cwd)
        }
        try fm.createSymbolicLink(atPath: "\(work)/board", withDestinationPath: "/dev/pts/77")
        try fm.createSymbolicLink(atPath: "\(work)/many-1", withDestinationPath: "/dev/pts/78")
        try fm.createSymbolicLink(atPath: "\(work)/many-2", withDestinationPath: "/dev/pts/79")
        try fm.createSymbolicLink(atPath: "\(work)/stale", withDestinationPath: "\(work)/not-a-pty")
        try process(300, ["/usr/local/bin/tiltsim", "--motion", "tour", "--link", "board"], cwd: work)
        try process(200, ["tiltsim", "--engine", "native", "--boards", "2", "--link=\(work)/many"])
        try process(400, ["tiltsim", "--link", "\(work)/stale"])
        try process(500, ["bash", "--link", "\(work)/board"])
        try process(600, ["tiltsim", "run", "sketch.hex"])
        try fm.createDirectory(atPath: "\(root)/self", withIntermediateDirectories: true)
        let real = FileSystem.resolved(work)
        #expect(EmulatedLinks.running(procRoot: root) == [
            .init(path: "\(work)/many-1", pty: "/dev/pts/78", pid: 200), .init(path: "\(work)/many-2", pty: "/dev/pts/79", pid: 200),
            .init(path: "\(real)/board", pty: "/dev/pts/77", pid: 300),
        ])
    }
}
