import Foundation
import SerialIO
import TiltCore
import TiltExitStatus
import Yams

/// The files tiltsim reads whole (scenarios, diagrams, wokwi.toml, motion
/// scripts): a regular file of bounded size, refused in one line otherwise,
/// before anything is read. A folder, a FIFO (whose open waits for a writer)
/// or a device (/dev/zero never ends) is named as such, not as a permissions
/// problem; a file past `limit` would cost memory out of all proportion.
enum InputFile {
    /// Larger than any scenario, diagram or script a person writes (a
    /// 5 MB scenario of 300 000 steps took 250 MB to read).
    static let limit = 4 << 20

    static func read(_ path: String, what: String, limit: Int = limit) throws(CommandFailure) -> Data {
        let status: FileStatus
        switch FileStatus.of(path) {
        case .success(let found): status = found
        case .failure(let error):
            throw .file(error == .noSuchFileOrDirectory ? "\(path): no such \(what)" : "\(path): cannot read this \(what) (\(error)); check its permissions")
        }
        switch status.kind {
        case .regular: break
        case .directory: throw .file("\(path) is a folder; give the \(what) in it")
        default: throw .file("\(path) is not a regular file (a FIFO, socket or device); give the \(what) as a file")
        }
        guard status.size <= limit else { throw .file("\(path) is \(status.size) bytes; a \(what) is at most \(limit / 1024) KiB here") }
        guard let data = FileManager.default.contents(atPath: path) else { throw .file("\(path): cannot read this \(what); check its permissions") }
        return data
    }

    /// Refuses JSON of more than `limit` keys and values before it is read:
    /// JSONSerialization builds an object for each (a 3.7 MB scenario of
    /// 340 000 steps took 1 GB), where YAML's files stop at `yaml`'s limit.
    /// Counted without parsing: each '[', '{', ',' and ':' outside a string
    /// opens one (a key is counted with its ',').
    static func checkJSONSize(_ data: Data, file: String, nodes limit: Int = 100_000) throws(CommandFailure) {
        var count = 1, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ":"): count += 1
            default: continue
            }
            if count > limit {
                throw .file("\(file): more than \(limit) JSON keys and values: longer than any a person writes; is it the file you meant?")
            }
        }
    }

    /// A YAML document's tree, with its aliases expanded at most to `nodes`
    /// nodes: nested anchors ("billion laughs") expand exponentially, and
    /// Yams builds every copy (a 389-byte file took gigabytes and never ended).
    /// Every mapping key must be text: Yams's tree force-unwraps a key as a
    /// string, and a list or mapping there (`[a]: 1`, `? [a]`) trapped.
    static func yaml(_ text: String, file: String, nodes limit: Int = 100_000) throws(CommandFailure) -> (node: Node?, tree: Any?) {
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch {
            if case .duplicatedKeysInMapping(let keys, let context) = error as? YamlError {
                // Yams marks the key's first place only; JSON's reader names the second (JSONDuplicateKeys).
                let key = keys.sorted().first ?? "?"
                throw .file("\(file):\(context.mark.line):\(context.mark.column): key \(quoted(key)) appears more than once in this mapping, first here; keep one")
            }
            throw .file("\(file): not valid YAML: \(ScenarioFile.oneLine("\(error)"))")
        }
        guard let node else { return (nil, nil) }
        var count = 0
        var keyNotText: Node?
        func fits(_ node: Node) -> Bool {
            count += 1
            guard count <= limit else { return false }
            switch node {
            case .mapping(let mapping):
                if keyNotText == nil, let key = mapping.keys.first(where: { $0.scalar == nil }) { keyNotText = key }
                return mapping.allSatisfy { fits($0.key) && fits($0.value) }
            case .sequence(let sequence): return sequence.allSatisfy(fits)
            case .scalar, .alias: return true
            }
        }
        guard fits(node) else {
            throw .file("\(file): more than \(limit) YAML nodes (keys and values, aliases expanded): longer than any scenario "
                        + "a person writes, or aliases of aliases; split it, or write the aliases out")
        }
        if let key = keyNotText {
            let line = key.mark.map { "line \($0.line): " } ?? ""
            throw .file("\(file): \(line)a key that is a \(key.sequence != nil ? "list" : "mapping"); a key is text (quote it)")
        }
        return (node, node.any)
    }
}
