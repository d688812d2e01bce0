import Foundation
import TiltCore

/// The first key a JSON object holds twice. JSONSerialization keeps the last
/// one's value without a word (`{"timeout": 2, "timeout": 3}` ran with 3),
/// while a YAML scenario with a repeated key is refused: a JSON one is too.
enum JSONDuplicateKey {
    /// "1:14: key 'timeout' appears twice (first on line 1); keep one" for
    /// `data`, which JSONSerialization has read (so it is valid JSON); nil
    /// when no object repeats a key.
    static func problem(in data: Data) -> String? {
        let bytes = [UInt8](data)
        var objects: [[String: Int]?] = []  // per open bracket: an object's keys (where each began), nil for an array
        var at = 0
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "{"): objects.append([:])
            case UInt8(ascii: "["): objects.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = objects.popLast()
            case UInt8(ascii: "\""):
                let start = at
                at += 1
                while at < bytes.count && bytes[at] != UInt8(ascii: "\"") { at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1 }
                let token = bytes[start..<min(at + 1, bytes.count)]
                var next = at + 1
                while next < bytes.count && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                // A string followed by ':' inside an object is a key.
                guard next < bytes.count, bytes[next] == UInt8(ascii: ":"), let keys = objects.last ?? nil else { break }
                let key = (try? JSONSerialization.jsonObject(with: Data(token), options: .fragmentsAllowed)) as? String
                    ?? String(decoding: token, as: UTF8.self)
                if let first = keys[key] {
                    let (line, column) = JSONSyntaxPlace.place(of: start, in: data)
                    return "\(line):\(column): key \(quoted(key)) appears twice (first on line \(JSONSyntaxPlace.place(of: first, in: data).line)); keep one"
                }
                objects[objects.count - 1]?[key] = start
            default: break
            }
            at += 1
        }
        return nil
    }
}
