import Foundation

/// Where Foundation's JSONSerialization stopped reading a file, as a person
/// finds it in an editor: "LINE:COLUMN: what" (columns count characters from 1).
///
/// Foundation's error carries the place only inside its debug text ("Invalid
/// value around character 8.", a byte offset; "Unexpected end of file..."),
/// and its localized description says nothing of where; this turns what it
/// gives into the place, and falls back to the plain message when the text
/// does not say (another Foundation may word it otherwise).
enum JSONSyntaxPlace {
    /// "3:9: invalid value" for an error JSONSerialization threw reading `data`.
    static func describe(_ error: Error, in data: Data) -> String {
        let debug = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
        var what = debug.isEmpty ? "not valid JSON" : String(debug.prefix { $0 != "." && $0 != "(" }).lowercased()
        if let around = what.range(of: " around character") { what = String(what[..<around.lowerBound]) }
        let offset: Int?
        if let match = debug.firstMatch(of: /character (\d+)/), let n = Int(match.1) {
            offset = min(n, data.count)
        } else if debug.lowercased().contains("end of file") || debug.lowercased().contains("unexpected end") {
            offset = data.count
        } else {
            offset = nil
        }
        guard let offset else { return what }
        let (line, column) = place(of: offset, in: data)
        return "\(line):\(column): \(what)"
    }

    /// Line and column (from 1, columns in characters) of byte `offset` of `data`.
    static func place(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        let before = data.prefix(offset)
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        let column = String(decoding: data[lineStart..<before.endIndex], as: UTF8.self).count + 1
        return (line, column)
    }
}
