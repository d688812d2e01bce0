import TiltPipeline

/// What `replay` makes of a file, decided from its first block and its name.
enum ReplayFormat: Equatable {
    case recording
    case sampleCSV
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
        if head.starts(with: [0xEF, 0xBB, 0xBF]) || lowered.hasSuffix(".csv") { return .sampleCSV }
        let start = head.prefix(512)
        if !start.isEmpty && start.allSatisfy({ $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }) {
            return .sampleCSV
        }
        return .unknown
    }
}
