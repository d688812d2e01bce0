import TiltCore

/// A strict reader for the one shape a config file has: a flat JSON object
/// (RFC 8259) whose values are strings, numbers, true/false, null or arrays
/// of those.
///
/// Why not Foundation's JSONDecoder/JSONSerialization: they keep the last of
/// two duplicate keys silently, their errors give no line and column (only a
/// coding path, or an index in a message that changes between platforms), and
/// they build a whole tree before we can refuse a nested object. This scanner
/// is short because the shape is, never recurses (arrays hold scalars only),
/// keeps each number's text as written (so messages quote it and integers
/// never pass through Double), and reports line and column (columns count
/// characters, from 1) for every syntax error and duplicate key.
struct ConfigJSON {
    enum Value: Equatable {
        case string(String)
        /// The token as written; `integer`: no fraction or exponent.
        case number(String, integer: Bool)
        case bool(Bool)
        case null
        case array([Value])
    }

    struct Entry: Equatable {
        var key: String
        var value: Value
    }

    /// Where the text stops being what a config file may hold.
    struct Problem: Error, Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The object's entries in file order.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> [Entry] {
        var scanner = ConfigJSON(bytes)
        return try scanner.object()
    }

    // MARK: Grammar

    private mutating func object() throws(Problem) -> [Entry] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte order mark
        skipSpace()
        guard let first = peek() else { throw problem("the file is empty; write a JSON object like {\"tickMicros\": 30000}") }
        guard first == UInt8(ascii: "{") else {
            throw problem("the top level must be a JSON object like {\"tickMicros\": 30000}, not \(describe(first))")
        }
        index += 1
        var entries: [Entry] = []
        var seen: [String: Int] = [:]  // key → byte offset (positions are counted only for a message)
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipSpace()
                guard peek() == UInt8(ascii: "\"") else { throw problem("expected a key in double quotes, found \(describeNext())") }
                let keyStart = index
                let key = try string()
                if let first = seen[key] {
                    let at = position(of: keyStart)
                    throw Problem(line: at.line, column: at.column,
                                  message: "key \(quoted(key)) appears twice (first on line \(position(of: first).line)); keep one")
                }
                seen[key] = keyStart
                skipSpace()
                guard peek() == UInt8(ascii: ":") else { throw problem("expected ':' after key \(quoted(key)), found \(describeNext())") }
                index += 1
                skipSpace()
                let value = try self.value(key: key, inArray: false)
                entries.append(Entry(key: key, value: value))
                skipSpace()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                if peek() == UInt8(ascii: "}") { index += 1; break }
                throw problem("expected ',' or '}' after the value of \(quoted(key)), found \(describeNext())")
            }
        }
        skipSpace()
        if peek() != nil { throw problem("unexpected \(describeNext()) after the object's closing '}'") }
        return entries
    }

    private mutating func value(key: String, inArray: Bool) throws(Problem) -> Value {
        guard let byte = peek() else { throw problem("the file ends where the value of \(quoted(key)) should be") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "{"):
            throw problem("the value of \(quoted(key)) is an object; settings are flat: numbers, strings, true/false, null or arrays of numbers")
        case UInt8(ascii: "["):
            if inArray { throw problem("an array inside the array of \(quoted(key)); it takes plain values") }
            return try array(key: key)
        default:
            throw problem("expected a value for \(quoted(key)), found \(describeNext())")
        }
    }

    private mutating func array(key: String) throws(Problem) -> Value {
        index += 1  // [
        var items: [Value] = []
        skipSpace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(key: key, inArray: true))
            skipSpace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            if peek() == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw problem("expected ',' or ']' in the array of \(quoted(key)), found \(describeNext())")
        }
    }

    private mutating func string() throws(Problem) -> String {
        index += 1  // "
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw problem("a string runs to the end of the file; close it with '\"'") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw problem("a string before here is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &utf8)
            case 0..<0x20:
                throw problem("a control character inside a string; write it as an escape like \\n")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(Problem) {
        guard let byte = peek() else { throw problem("the file ends inside an escape") }
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let plain = simple[byte] { utf8.append(plain); return }
        guard byte == UInt8(ascii: "u") else {
            index -= 1
            throw problem("unknown escape \\\(describeNext()); JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
            guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw problem("a \\u escape of a lone high surrogate; pair it with a low one (\\uDC00-\\uDFFF)")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw problem("a high surrogate not followed by a low one") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw problem("a \\u escape of a lone low surrogate")
        }
        utf8.append(contentsOf: Array(String(Character(Unicode.Scalar(code)!)).utf8))
    }

    private mutating func hex4() throws(Problem) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexDigit(byte) else { throw problem("\\u takes four hex digits") }
            code = code << 4 | digit
            index += 1
        }
        return code
    }

    private static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func number() throws(Problem) -> Value {
        let start = index
        var integer = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
            if let b = peek(), Self.isDigit(b) { throw problem("a number with a leading zero; write it without") }
        } else {
            guard try digits() > 0 else { throw problem("expected a digit, found \(describeNext())") }
        }
        if peek() == UInt8(ascii: ".") {
            integer = false
            index += 1
            guard try digits() > 0 else { throw problem("expected a digit after the decimal point, found \(describeNext())") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            integer = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw problem("expected a digit in the exponent, found \(describeNext())") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self), integer: integer)
    }

    private mutating func digits() throws(Problem) -> Int {
        let start = index
        while let b = peek(), Self.isDigit(b) { index += 1 }
        return index - start
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private mutating func literal(_ word: String) throws(Problem) {
        for expected in word.utf8 {
            guard peek() == expected else { throw problem("expected \(word) (JSON literals are lower case), found \(describeNext())") }
            index += 1
        }
    }

    // MARK: Position and messages

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let b = peek(), b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
    }

    /// Line and column (characters, from 1) of byte `offset`.
    private func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for b in bytes[..<min(offset, bytes.count)] {
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private func problem(_ message: String) -> Problem {
        let at = position(of: index)
        return Problem(line: at.line, column: at.column, message: message)
    }

    private func describeNext() -> String {
        guard let b = peek() else { return "the end of the file" }
        return describe(b)
    }

    private func describe(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "\""): "a string"
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        default: "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }
}
