/// A sketch's serial output as lines, for matching: complete lines since the
/// last match (the backlog) and the unfinished last line. Pure value; bounded:
/// a line longer than `maximumLine` bytes is cut into lines, and the backlog
/// keeps only its newest `maximumBacklog` bytes.
struct SerialText {
    static let maximumLine = 4096
    static let maximumBacklog = 64 * 1024

    /// Complete lines not consumed by a match, oldest first (without CR/LF).
    private(set) var backlog: [String] = []
    private var backlogBytes = 0
    /// Lines dropped from the front of the backlog so far (for callers' indices).
    private(set) var droppedLines = 0
    /// The unfinished last line.
    private(set) var partial: [UInt8] = []
    /// The unfinished line matched already (a line matches once).
    private(set) var partialConsumed = false

    /// Adds bytes; calls `line` for each line completed.
    mutating func feed(_ bytes: [UInt8], line: (String) -> Void) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") || partial.count >= Self.maximumLine {
                finishLine(line)
                if byte == UInt8(ascii: "\n") { continue }
            }
            partial.append(byte)
        }
    }

    /// The unfinished line as text, unless matched already.
    var partialText: String? {
        partialConsumed || partial.isEmpty ? nil : Self.text(partial)
    }

    /// Consumes backlog lines up to and including index `i` (after a match there).
    mutating func consumeBacklog(through i: Int) {
        let count = min(i + 1, backlog.count)
        backlogBytes -= backlog[0..<count].reduce(0) { $0 + $1.utf8.count }
        backlog.removeFirst(count)
    }

    /// Marks the unfinished line as matched (and the backlog before it as read).
    mutating func consumePartial() {
        consumeBacklog(through: backlog.count - 1)
        partialConsumed = true
    }

    private mutating func finishLine(_ line: (String) -> Void) {
        let text = Self.text(partial)
        let consumed = partialConsumed
        partial.removeAll(keepingCapacity: true)
        partialConsumed = false
        line(text)
        guard !consumed else { return }
        backlog.append(text)
        backlogBytes += text.utf8.count
        while backlogBytes > Self.maximumBacklog, let first = backlog.first {
            backlogBytes -= first.utf8.count
            backlog.removeFirst()
            droppedLines += 1
        }
    }

    private static func text(_ bytes: [UInt8]) -> String {
        var end = bytes.endIndex
        if end > 0 && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
