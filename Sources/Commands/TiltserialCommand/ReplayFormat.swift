import TiltPipeline

/// What `replay` makes of a file, decided from its first block and its name.
enum ReplayFormat: Equatable {
    case recording
    case sampleCSV
    /// Text, but not UTF-8: UTF-16 (Excel's "Unicode text" export), by its
    /// byte order mark or the NULs between its characters (every other byte:
    /// NULs elsewhere, an SD card log's padding, are no UTF-16).
    case notUTF8Text
    case unknown

    /// - Parameters:
    ///   - head: the file's first bytes (a whole block, or the whole file when shorter).
    ///   - name: the path as given (`.csv`, `.tiltrec` decide an ambiguous start).
    static func detect(head: UnsafeRawBufferPointer, name: String) -> ReplayFormat {
        let magic = Recording.magic
        let lowered = name.lowercased()
        if head.starts(with: magic) { return .recording }
        // A recording cut inside its magic: the reader says it is too short.
        if head.count < magic.count && (!head.isEmpty || lowered.hasSuffix(".tiltrec")) && magic.starts(with: head) {
            return .recording
        }
        let start = head.prefix(512)
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) || (lowered.hasSuffix(".csv") && Self.looksUTF16(start)) {
            return .notUTF8Text
        }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) || lowered.hasSuffix(".csv") { return .sampleCSV }
        if !start.isEmpty && start.allSatisfy({ $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }) {
            return .sampleCSV
        }
        return .unknown
    }

    /// ASCII text as UTF-16: in most of the first 32 byte pairs one byte is NUL
    /// and the other is not, on the same side each time.
    static func looksUTF16(_ bytes: Slice<UnsafeRawBufferPointer>) -> Bool {
        let head = Array(bytes.prefix(64))
        var little = 0, big = 0, pairs = 0
        for i in stride(from: 0, to: head.count - 1, by: 2) {
            pairs += 1
            if head[i] != 0 && head[i + 1] == 0 { little += 1 }
            if head[i] == 0 && head[i + 1] != 0 { big += 1 }
        }
        return pairs >= 2 && max(little, big) * 4 >= pairs * 3
    }
}
