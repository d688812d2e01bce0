import TiltPhysics

/// The pins file (docs/usage.md, "Pins"): one JSON object with one key,
/// `"pins"`, an array of `{"item": NAME, "x": X, "y": Y}` objects, oldest
/// first; NAME one of the drawer's items, X and Y content pixels (0…65535).
///
///     {
///       "pins": [
///         {"item": "star", "x": 300, "y": 140}
///       ]
///     }
///
/// Pure: bytes in, pins out (and back). The reader is strict and small, like
/// ConfigJSON and for the same reasons (line and column in every message, no
/// silently kept duplicate keys, no tree built before refusing); it knows just
/// this shape. At most `maxPins` entries are read (bounded memory); the run
/// uses at most `PinBoard.capacity` of them.
enum PinsFile {
    /// Entries read at most: far more than a board keeps, still a few KB.
    static let maxPins = 1024

    struct Problem: Error, Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    /// The pins in `bytes`, oldest first. `items`: the drawer's item names.
    static func parse(_ bytes: [UInt8], items: [String]) throws(Problem) -> [Pin] {
        var s = Scanner(bytes: bytes, items: items)
        return try s.file()
    }

    /// The pins in `bytes` with any item names: the drawer's `items` first,
    /// then the names it lacks (a newer art's, a hand edit), in the order
    /// met, so that `pins list` and `pins remove` can show and keep them.
    static func parseAnyItems(_ bytes: [UInt8], items: [String]) throws(Problem) -> (pins: [Pin], items: [String]) {
        var s = Scanner(bytes: bytes, items: items, learnsItems: true)
        let pins = try s.file()
        return (pins, s.items)
    }

    /// How many pins a file of `shapeProblem`'s shape holds (0 when it has none).
    static func count(_ bytes: [UInt8]) -> Int {
        var s = Scanner(bytes: bytes, items: [], anyItem: true)
        return (try? s.file().count) ?? 0
    }

    /// Whether `bytes` have a pins file's shape whatever item names they use
    /// (an art with other items, a hand edit): the file `pins clear` may
    /// overwrite. The problem that says it is no pins file, else nil.
    static func shapeProblem(_ bytes: [UInt8]) -> Problem? {
        var s = Scanner(bytes: bytes, items: [], anyItem: true)
        do { _ = try s.file() } catch { return error }
        return nil
    }

    /// The file for `pins` (deterministic: the same pins give the same bytes).
    static func format(_ pins: [Pin], items: [String]) -> String {
        var text = "{\n  \"pins\": ["
        for (i, pin) in pins.enumerated() {
            text += i == 0 ? "\n" : ",\n"
            text += "    {\"item\": \"\(JSONLines.escaped(JSONLines.itemName(pin.item, items)))\", \"x\": \(pin.x), \"y\": \(pin.y)}"
        }
        text += pins.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return text
    }

    struct Scanner {
        let bytes: [UInt8]
        var items: [String]
        /// Any plain name is an item (index 0): the shape alone is checked.
        var anyItem = false
        /// A name not in `items` is added to them.
        var learnsItems = false
        var index = 0

        mutating func file() throws(Problem) -> [Pin] {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            try expect("{", "a JSON object, as a pins file is: {\"pins\": []}")
            try key("pins")
            try expect(":", "':' after \"pins\"")
            try expect("[", "an array of pins after \"pins\":")
            var pins: [Pin] = []
            if !take("]") {
                repeat {
                    guard pins.count < PinsFile.maxPins else { throw problem("more than \(PinsFile.maxPins) pins; this is not a pins file tiltserial wrote") }
                    pins.append(try pin())
                } while take(",")
                try expect("]", "',' or ']' after a pin")
            }
            try expect("}", "'}' after the pins: the object holds only \"pins\"")
            skipSpace()
            guard index == bytes.count else { throw problem("text after the object: \(describeNext())") }
            return pins
        }

        mutating func pin() throws(Problem) -> Pin {
            skipSpace()
            let start = index
            try expect("{", "a pin like {\"item\": \"star\", \"x\": 300, \"y\": 140}")
            var item: Int?, x: Int?, y: Int?
            repeat {
                skipSpace()
                let at = index
                let name = try string()
                try expect(":", "':' after \"\(name)\"")
                switch name {
                case "item":
                    guard item == nil else { throw problem("\"item\" appears twice in one pin", at: at) }
                    skipSpace()
                    let valueAt = index
                    let word = try string()
                    guard !word.isEmpty else { throw problem("an empty item name; the drawer holds \(items.prefix(8).joined(separator: ", "))", at: valueAt) }
                    if learnsItems && !items.contains(word) { items.append(word) }
                    guard let found = anyItem ? 0 : items.firstIndex(of: word) else {
                        throw problem("no item \"\(JSONLines.escaped(word))\"; the drawer holds \(items.joined(separator: ", "))", at: valueAt)
                    }
                    item = found
                case "x", "y":
                    guard (name == "x" ? x : y) == nil else { throw problem("\"\(name)\" appears twice in one pin", at: at) }
                    let value = try integer(name)
                    if name == "x" { x = value } else { y = value }
                default:
                    throw problem("unknown key \"\(JSONLines.escaped(name))\" in a pin; a pin has \"item\", \"x\" and \"y\"", at: at)
                }
            } while take(",")
            try expect("}", "',' or '}' in a pin")
            guard let item, let x, let y else {
                throw problem("a pin needs \"item\", \"x\" and \"y\" (this one lacks \(item == nil ? "\"item\"" : x == nil ? "\"x\"" : "\"y\""))", at: start)
            }
            return Pin(item: item, x: x, y: y)
        }

        /// A whole number of content pixels, 0…65535 (what the board's 16-bit fields carry).
        mutating func integer(_ name: String) throws(Problem) -> Int {
            skipSpace()
            let start = index
            var value = 0
            while let b = peek(), b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
                value = value * 10 + Int(b - UInt8(ascii: "0"))
                index += 1
                guard value <= 65_535 else { throw problem("\"\(name)\" must be a whole number from 0 to 65535", at: start) }
            }
            guard index > start, !(index - start > 1 && bytes[start] == UInt8(ascii: "0")) else {
                throw problem("\"\(name)\" must be a whole number from 0 to 65535, found \(describeNext())", at: start)
            }
            if let b = peek(), b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                throw problem("\"\(name)\" must be a whole number from 0 to 65535", at: start)
            }
            return value
        }

        /// A JSON string of printable ASCII (names and keys are plain words); escapes refused.
        mutating func string() throws(Problem) -> String {
            skipSpace()
            guard take("\"", skippingSpace: false) else { throw problem("expected a string in double quotes, found \(describeNext())") }
            let start = index
            while let b = peek(), b != UInt8(ascii: "\"") {
                guard b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\") else {
                    throw problem(b >= 0x80 ? "names are plain ASCII words: no accents or other letters past ASCII"
                                            : "names are plain words: no escapes or control characters")
                }
                index += 1
                guard index - start <= 64 else { throw problem("a name longer than 64 characters") }
            }
            guard take("\"", skippingSpace: false) else { throw problem("the string is not closed") }
            return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
        }

        mutating func key(_ name: String) throws(Problem) {
            skipSpace()
            let at = index
            let found = try string()
            guard found == name else { throw problem("expected the key \"\(name)\", found \"\(JSONLines.escaped(found))\"", at: at) }
        }

        mutating func expect(_ c: Character, _ what: String) throws(Problem) {
            guard take(c) else { throw problem("expected \(what), found \(describeNext())") }
        }

        mutating func take(_ c: Character, skippingSpace: Bool = true) -> Bool {
            if skippingSpace { skipSpace() }
            guard peek() == c.asciiValue else { return false }
            index += 1
            return true
        }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let b = peek(), b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
        }

        func describeNext() -> String {
            guard let b = peek() else { return "the end of the file" }
            return b >= 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
        }

        func problem(_ message: String, at offset: Int? = nil) -> Problem {
            let end = min(offset ?? index, bytes.count)
            var line = 1, column = 1
            for b in bytes[..<end] {
                if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            }
            return Problem(line: line, column: column, message: message)
        }
    }
}
