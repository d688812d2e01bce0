import Foundation
import Testing

/// Every public (and open) name in Sources/ has a doc comment (`///` or `/** */`)
/// right above it or above its attributes, as swift-system's do (issue 14 §4),
/// and the comment says more than the name (`/// The message.` on `message`
/// or `/// 0x10.` is filler and fails, issue 20 §5);
/// every function of a C shim's public header (Sources/*/*/include/*.h) has a
/// comment. Generated files are scanned like the others: their comments come
/// from the generator.
///
/// Why a scanner and not the compiler: Swift has no "missing documentation"
/// warning, and a DocC build needs the swift-docc plugin, which these machines
/// do not have. The scanner reads Swift's lexical structure (comments, strings
/// with interpolation, raw and multi-line strings, braces, attributes spread
/// over lines), which is all a declaration's visibility and its doc comment need.
@Suite struct PublicDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyPublicSwiftNameHasADocComment() throws {
        let files = try Self.files(under: "Sources", ending: ".swift")
        #expect(files.count > 100, "Sources/ not found from \(Self.root.path)")
        var missing: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for found in SwiftDocScanner.undocumented(in: text) {
                missing.append("\(file):\(found.line): \(found.declaration)")
            }
        }
        #expect(missing.isEmpty, "\(missing.count) public names without a doc comment, or with one that restates the name:\n\(missing.joined(separator: "\n"))")
    }

    @Test func fillerDocCommentsDoNotCount() {
        #expect(SwiftDocScanner.isFiller("The message.", naming: ["message"]))
        #expect(SwiftDocScanner.isFiller("0x10.", naming: ["frameType"]))
        #expect(SwiftDocScanner.isFiller("Bytes dropped.", naming: ["droppedBytes"]))
        #expect(SwiftDocScanner.isFiller("Counters of a text reader.", naming: ["TextReaderCounters"]))
        #expect(!SwiftDocScanner.isFiller("0x81: the segment drive current.", naming: ["contrast"]))
        #expect(!SwiftDocScanner.isFiller("The message, one line naming the fix.", naming: ["message"]))
        let source = """
            /// The count.
            public var count = 0
            /// How many frames arrived, lost ones included.
            public var total = 0
            """
        #expect(SwiftDocScanner.undocumented(in: source).map(\.line) == [2])
    }

    @Test func everyCShimFunctionHasAComment() throws {
        let headers = try Self.files(under: "Sources", ending: ".h").filter { $0.contains("/include/") }
        #expect(!headers.isEmpty, "no public C headers found under Sources/*/*/include")
        var missing: [String] = []
        for file in headers {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            missing += CHeaderScanner.uncommentedFunctions(in: text).map { "\(file):\($0.line): \($0.name)" }
        }
        #expect(missing.isEmpty, "\(missing.count) C functions without a comment:\n\(missing.joined(separator: "\n"))")
    }

    // MARK: - The scanners on known input (so the checks can fail)

    @Test func scannerFindsEachKindOfUndocumentedName() {
        let source = #"""
        /// Documented.
        public struct A {
            public init() {}
            /// Documented.
            @inlinable
            public func b() -> String { "public func notADeclaration()" }
            @available(*, deprecated,
                       message: "x")
            public var c: Int { 1 }
            /// Documented, attributes spread over lines.
            @available(*, deprecated,
                       message: "y")
            public static let d = 1
            public private(set) var e = 0
            let internalOne = 0
            func internalTwo() { public_call() }
        }
        public enum E: Int {
            case f, g
            /// Documented.
            case h
            indirect case i
            public func j() { switch self { case .f: break; default: break } }
        }
        public extension A {
            func k() {}
            private func hidden() {}
            var l: Int { 0 }
        }
        extension A {
            func internalThree() {}
            @inlinable public func m() {}
        }
        /** Documented. */
        public protocol P {
            associatedtype N
            func o()
        }
        struct Internal {
            public func notReallyPublic() {}
        }
        public typealias Q = Int
        public enum Raw: Int { case one = 1, two = 2 }
        public let pair = (1, 2), other = [3, 4]
        open class R {
            open func s() {}
            public nonisolated(unsafe) static var t = 0
        }
        public func u(_ text: String = """
            public func insideAString()
            """) {}
        // Not a doc comment.
        public let v = "\("public let w")"
        """#
        let found = SwiftDocScanner.undocumented(in: source).map(\.declaration)
        #expect(found == [
            "public init", "public var c", "public var e", "public enum E", "public case f, g", "public case i", "public func j",
            "public func k", "public var l", "public func m", "public associatedtype N", "public func o",
            "public typealias Q", "public enum Raw", "public case one, two", "public let pair, other", "open class R", "open func s", "public var t", "public func u", "public let v",
        ])
    }

    @Test func headerScannerFindsFunctionsWithoutAComment() {
        let header = """
        #pragma once
        /// Documented.
        int a(int x);
        int b(void);
        /// Documented, over two lines.
        struct avr_t *c(const char *path,
                        int flags);
        typedef void (*hook)(int value);
        struct avr_t;
        enum { X = 0, Y };
        typedef struct {
            int field;
        } state;
        unsigned int d(int x); // trailing comment counts
        void e(void);
        """
        #expect(CHeaderScanner.uncommentedFunctions(in: header).map(\.name) == ["b", "e"])
    }

    static func files(under folder: String, ending suffix: String) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.sorted().map { "\(folder)/\($0)" }
    }
}

/// Finds public and open Swift declarations without a doc comment.
enum SwiftDocScanner {
    /// One source line as the declaration pass needs it.
    struct Line {
        /// The code, comments removed and string literals emptied (`""`).
        var code = ""
        /// The line holds (or ends) a doc comment and no code.
        var isDoc = false
        /// Open parentheses and brackets before the line's first character.
        var depthAtStart = 0
    }

    /// Where a declaration's body braces belong.
    enum Scope {
        case file
        case type(isPublic: Bool, isEnum: Bool, isProtocol: Bool)
        case extensionBody(isPublic: Bool)
        case code
    }

    static let typeKeywords: Set<String> = ["struct", "class", "enum", "protocol", "actor", "extension"]
    static let declarationKeywords: Set<String> = typeKeywords.union([
        "func", "init", "subscript", "var", "let", "typealias", "associatedtype", "case", "macro", "deinit", "import",
        "operator", "precedencegroup",
    ])
    static let accessLevels: Set<String> = ["public", "open", "package", "internal", "fileprivate", "private"]
    static let modifiers: Set<String> = accessLevels.union([
        "static", "final", "override", "mutating", "nonmutating", "lazy", "weak", "unowned", "dynamic", "required",
        "convenience", "optional", "indirect", "nonisolated", "isolated", "consuming", "borrowing", "distributed",
        "prefix", "postfix", "infix", "__consuming",
    ])

    /// (line number, "public func name") for each undocumented public declaration.
    static func undocumented(in source: String) -> [(line: Int, declaration: String)] {
        let lines = lex(source)
        let raw = source.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var scopes: [Scope] = [.file]
        var pending: Scope?
        var found: [(Int, String)] = []
        for (index, line) in lines.enumerated() {
            let code = line.code.trimmingCharacters(in: .whitespaces)
            if !code.isEmpty, line.depthAtStart == 0, let declaration = parse(code) {
                let scope = scopes.last ?? .file
                if let description = publicDescription(of: declaration, in: scope) {
                    if !isDocumented(lineAt: index, in: lines) {
                        found.append((index + 1, description))
                    } else if let doc = docText(above: index, in: raw), isFiller(doc, naming: declaration.names) {
                        found.append((index + 1, description + " (its doc comment only restates the name or value: \"\(doc)\")"))
                    }
                }
                if typeKeywords.contains(declaration.keyword) {
                    let isPublic = declaration.access == "public" || declaration.access == "open"
                        || (declaration.access == nil && isImplicitlyPublic(in: scope))
                    pending = declaration.keyword == "extension"
                        ? .extensionBody(isPublic: isPublic)
                        : .type(isPublic: isPublic && isPublicContainer(scope), isEnum: declaration.keyword == "enum",
                                isProtocol: declaration.keyword == "protocol")
                }
            }
            for position in line.code.indices {
                let character = line.code[position]
                if character == "{" {
                    scopes.append(pending ?? .code)
                    pending = nil
                    // `public enum E { case a, b }`: a member on the brace's line has no doc comment of its own.
                    let after = line.code[line.code.index(after: position)...].trimmingCharacters(in: .whitespaces)
                    if let member = parse(after), let description = publicDescription(of: member, in: scopes[scopes.count - 1]) {
                        found.append((index + 1, description))
                    }
                } else if character == "}", scopes.count > 1 {
                    scopes.removeLast()
                }
            }
        }
        return found
    }

    struct Declaration {
        var access: String?
        var keyword: String
        var names: [String]
    }

    /// The leading attributes, modifiers, keyword and name(s) of a line that starts a declaration.
    static func parse(_ code: String) -> Declaration? {
        var rest = Substring(code)
        var access: String?
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.first == "@" {  // an attribute, with its arguments if any
                rest = rest.dropFirst().drop { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                if rest.first == "(" {
                    guard let close = matchingParenthesis(in: rest) else { return nil }  // continues on the next line
                    rest = rest[rest.index(after: close)...]
                }
                continue
            }
            let word = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            guard !word.isEmpty else { return nil }
            rest = rest.dropFirst(word.count)
            if rest.first == "(", modifiers.contains(word) {  // private(set), nonisolated(unsafe)
                guard let close = matchingParenthesis(in: rest) else { return nil }
                let argument = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                if accessLevels.contains(word) && argument != "set" { access = word }
                continue
            }
            if accessLevels.contains(word) { access = word; continue }
            if word == "class", let next = rest.split(separator: " ").first,
               declarationKeywords.contains(String(next)) || modifiers.contains(String(next)) { continue }
            if modifiers.contains(word) { continue }
            guard declarationKeywords.contains(word) else { return nil }
            return Declaration(access: access, keyword: word, names: names(after: rest, keyword: word))
        }
    }

    static func names(after rest: Substring, keyword: String) -> [String] {
        if keyword == "init" || keyword == "deinit" || keyword == "subscript" { return [] }
        func identifier(_ text: Substring) -> String {
            String(text.drop { $0 == " " || $0 == "`" }.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        }
        guard keyword == "case" || keyword == "let" || keyword == "var" else {
            let name = identifier(rest)
            return name.isEmpty ? [String(rest.drop { $0 == " " }.prefix { $0 != " " && $0 != "(" && $0 != "<" })] : [name]
        }
        // `case a, b(Int)`, `let a, b: Int`: split at top-level commas.
        var parts: [Substring] = []
        var depth = 0
        var inValue = false  // after `=`: `<` and `>` are operators there, not generics
        var start = rest.startIndex
        for index in rest.indices {
            switch rest[index] {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "<" where !inValue: depth += 1
            case ">" where !inValue: depth -= 1
            case "=" where depth == 0: inValue = true
            case "," where depth == 0:
                parts.append(rest[start..<index])
                start = rest.index(after: index)
                inValue = false
            default: break
            }
        }
        parts.append(rest[start...])
        return parts.map(identifier).filter { !$0.isEmpty }
    }

    static func matchingParenthesis(in text: Substring) -> Substring.Index? {
        var depth = 0
        for index in text.indices {
            if text[index] == "(" { depth += 1 }
            if text[index] == ")" { depth -= 1; if depth == 0 { return index } }
        }
        return nil
    }

    static func isPublicContainer(_ scope: Scope) -> Bool {
        switch scope {
        case .file, .extensionBody: true
        case .type(let isPublic, _, _): isPublic
        case .code: false
        }
    }

    static func isImplicitlyPublic(in scope: Scope) -> Bool {
        switch scope {
        case .extensionBody(let isPublic): isPublic
        case .type(let isPublic, _, let isProtocol): isPublic && isProtocol
        default: false
        }
    }

    /// "public func name" when the declaration is public in its scope, else nil.
    static func publicDescription(of declaration: Declaration, in scope: Scope) -> String? {
        let keyword = declaration.keyword
        if keyword == "import" || keyword == "extension" || keyword == "deinit" { return nil }
        if case .code = scope { return nil }
        var isPublic: Bool
        switch declaration.access {
        case "public", "open": isPublic = isPublicContainer(scope)
        case nil: isPublic = isImplicitlyPublic(in: scope)
        default: isPublic = false
        }
        if keyword == "case" {
            guard case .type(let enumIsPublic, true, _) = scope else { return nil }  // a switch's case
            isPublic = enumIsPublic
        }
        guard isPublic else { return nil }
        let access = declaration.access == "open" ? "open" : "public"
        let names = declaration.names.joined(separator: ", ")
        return names.isEmpty ? "\(access) \(keyword)" : "\(access) \(keyword) \(names)"
    }

    /// The `///` comment right above a declaration (or above its attributes), its lines
    /// joined; nil for a block comment or none.
    static func docText(above index: Int, in raw: [String]) -> String? {
        var above = index - 1
        while above >= 0, raw[above].hasPrefix("@") { above -= 1 }
        var parts: [String] = []
        while above >= 0, raw[above].hasPrefix("///") {
            parts.insert(String(raw[above].dropFirst(3)).trimmingCharacters(in: .whitespaces), at: 0)
            above -= 1
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// Words a comment may use without saying anything: articles and the like.
    static let emptyWords: Set<String> = ["the", "a", "an", "this", "its", "of", "to", "is", "value"]

    /// A doc comment that tells a reader nothing the declaration does not: only
    /// the name's own words (`/// The message.` on `message`), or only a number
    /// (`/// 0x10.`). Such comments are what a rule that counts comments breeds.
    static func isFiller(_ doc: String, naming names: [String]) -> Bool {
        let words = doc.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init).filter { !emptyWords.contains($0) }
        if words.isEmpty { return true }
        if words.count == 1, let only = words.first, only.allSatisfy({ $0.isNumber }) || (only.hasPrefix("0x") && only.count > 2) {
            return true
        }
        let nameWords = Set(names.flatMap(camelWords))
        return !nameWords.isEmpty && words.allSatisfy { nameWords.contains($0) || nameWords.contains(String($0.dropLast())) }
    }

    /// "frameType" → ["frame", "type"]; "sensorWhoAmI" → ["sensor", "who", "am", "i"].
    static func camelWords(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for c in name {
            if c == "_" { if !current.isEmpty { words.append(current) }; current = ""; continue }
            if c.isUppercase, !current.isEmpty, !(current.last?.isUppercase ?? false) { words.append(current); current = "" }
            current.append(c)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }
    }

    /// The line (or its attributes above it) follows a doc comment.
    static func isDocumented(lineAt index: Int, in lines: [Line]) -> Bool {
        var above = index - 1
        while above >= 0 {
            let line = lines[above]
            let code = line.code.trimmingCharacters(in: .whitespaces)
            if line.depthAtStart > 0 && !code.isEmpty || code.hasPrefix("@") {
                above -= 1  // an attribute, or a line inside one's arguments
                continue
            }
            return line.isDoc
        }
        return false
    }

    /// Splits the source into lines of code without comments or string contents.
    static func lex(_ source: String) -> [Line] {
        enum Mode { case code(parentheses: Int), string(multiline: Bool, hashes: Int) }
        let text = Array(source.unicodeScalars)
        var lines: [Line] = [Line()]
        var modes: [Mode] = [.code(parentheses: 0)]
        var depth = 0
        var blockComment = 0
        var blockIsDoc = false
        var lineHasDoc = false
        var i = 0
        func at(_ offset: Int) -> Unicode.Scalar? { i + offset < text.count ? text[i + offset] : nil }
        func startsWith(_ literal: String) -> Bool {
            for (offset, scalar) in literal.unicodeScalars.enumerated() where at(offset) != scalar { return false }
            return true
        }
        func newLine() {
            let code = lines[lines.count - 1].code.trimmingCharacters(in: .whitespaces)
            lines[lines.count - 1].isDoc = code.isEmpty && lineHasDoc
            lines.append(Line(depthAtStart: depth))
            lineHasDoc = blockComment > 0 && blockIsDoc
        }
        while i < text.count {
            let c = text[i]
            if c == "\n" { newLine(); i += 1; continue }
            if blockComment > 0 {
                if startsWith("*/") { blockComment -= 1; i += 2 } else if startsWith("/*") { blockComment += 1; i += 2 } else { i += 1 }
                continue
            }
            switch modes[modes.count - 1] {
            case .string(let multiline, let hashes):
                let closing = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
                let escape = "\\" + String(repeating: "#", count: hashes)
                if startsWith(closing) {
                    modes.removeLast()
                    lines[lines.count - 1].code += "\""
                    i += closing.unicodeScalars.count
                } else if startsWith(escape + "(") {
                    modes.append(.code(parentheses: 1))
                    i += escape.unicodeScalars.count + 1
                } else if startsWith(escape) {
                    i += escape.unicodeScalars.count + (at(escape.unicodeScalars.count) == "\n" ? 0 : 1)
                } else {
                    i += 1
                }
                continue
            case .code(let parentheses):
                if startsWith("//") {
                    lineHasDoc = lineHasDoc || (startsWith("///") && !startsWith("////"))
                    while i < text.count && text[i] != "\n" { i += 1 }
                    continue
                }
                if startsWith("/*") {
                    blockComment = 1
                    blockIsDoc = startsWith("/**") && !startsWith("/**/")
                    lineHasDoc = lineHasDoc || blockIsDoc
                    i += 2
                    continue
                }
                var hashes = 0
                while at(hashes) == "#" { hashes += 1 }
                if at(hashes) == "\"" {
                    let multiline = at(hashes + 1) == "\"" && at(hashes + 2) == "\""
                    modes.append(.string(multiline: multiline, hashes: hashes))
                    lines[lines.count - 1].code += "\""
                    i += hashes + (multiline ? 3 : 1)
                    continue
                }
                if modes.count > 1 {  // inside an interpolation: its parentheses end it
                    if c == "(" { modes[modes.count - 1] = .code(parentheses: parentheses + 1) }
                    if c == ")" {
                        if parentheses == 1 { modes.removeLast(); i += 1; continue }
                        modes[modes.count - 1] = .code(parentheses: parentheses - 1)
                    }
                } else {
                    if c == "(" || c == "[" { depth += 1 }
                    if c == ")" || c == "]" { depth = max(0, depth - 1) }
                    lines[lines.count - 1].code.unicodeScalars.append(c)
                }
                i += 1
            }
        }
        newLine()
        return lines
    }
}

/// Finds C function declarations in a header without a comment on the line
/// above (or a trailing comment on their own line).
enum CHeaderScanner {
    static func uncommentedFunctions(in header: String) -> [(line: Int, name: String)] {
        let lines = header.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [(Int, String)] = []
        var braces = 0
        var statementStart: Int?
        var statement = ""
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let code = line.components(separatedBy: "//").first ?? ""
            if line.hasPrefix("#") || line.hasPrefix("//") || line.hasPrefix("*") || line.hasPrefix("/*") { continue }
            if braces == 0 && statementStart == nil && !code.trimmingCharacters(in: .whitespaces).isEmpty {
                statementStart = index
                statement = ""
            }
            statement += " " + code
            braces += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
            guard braces == 0, code.contains(";"), let start = statementStart else { continue }
            statementStart = nil
            let words = statement.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" })
            guard let open = statement.firstIndex(of: "("), !statement.contains("{"),
                  words.first != "typedef", let name = statement[..<open].split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).last
            else { continue }
            let above = start > 0 ? lines[start - 1].trimmingCharacters(in: .whitespaces) : ""
            let commented = above.hasPrefix("//") || above.hasSuffix("*/") || lines[start].contains("//")
            if !commented { found.append((start + 1, String(name))) }
        }
        return found
    }
}
