/// Reads decimal integers from a text line, with bounded work.
@usableFromInline struct TextFields {
    @usableFromInline let line: UnsafeRawBufferPointer
    @usableFromInline var index: Int

    @usableFromInline init(_ line: UnsafeRawBufferPointer, after prefix: StaticString) {
        self.line = line
        index = 0
        let count = prefix.utf8CodeUnitCount
        guard line.count >= count else { index = -1; return }
        let matches = prefix.withUTF8Buffer { expected in
            (0..<count).allSatisfy { line[$0] == expected[$0] }
        }
        index = matches ? count : -1
    }

    /// Whether the line starts with the prefix.
    @usableFromInline var hasPrefix: Bool { index >= 0 }

    @usableFromInline func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    @usableFromInline mutating func skipSpaces() {
        while index < line.count && isSpace(line[index]) { index += 1 }
    }

    /// Skips spaces, then exactly one `separator` if given (nil: spaces separate).
    @usableFromInline mutating func skipSeparator(_ separator: UInt8?) -> Bool {
        skipSpaces()
        guard let separator else { return true }
        guard index < line.count && line[index] == separator else { return false }
        index += 1
        return true
    }

    /// An optionally signed integer of at most 9 digits (so it cannot overflow).
    @usableFromInline mutating func integer() -> Int? {
        skipSpaces()
        var negative = false
        if index < line.count && (line[index] == UInt8(ascii: "-") || line[index] == UInt8(ascii: "+")) {
            negative = line[index] == UInt8(ascii: "-")
            index += 1
        }
        var value = 0
        var digits = 0
        while index < line.count, line[index] >= UInt8(ascii: "0"), line[index] <= UInt8(ascii: "9") {
            digits += 1
            if digits > 9 { return nil }
            value = value * 10 + Int(line[index] - UInt8(ascii: "0"))
            index += 1
        }
        return digits == 0 ? nil : (negative ? -value : value)
    }

    /// Whether the next byte is a space or tab (a field boundary).
    @usableFromInline var atSpace: Bool { index < line.count && isSpace(line[index]) }

    @usableFromInline var atEnd: Bool {
        mutating get {
            skipSpaces()
            return index == line.count
        }
    }
}
