/// The view's message line cut to its width so the fix survives: our lines
/// say what happened, then after ": " or "; " what to do, and a plain cut at
/// 80 columns took the what-to-do away (an outside tester's "check --baud …"
/// and "tiltserial calibrate saves one"). Too long, the line keeps its
/// ending after its last separator whole, and as much of its start as fits,
/// joined by "…" (without a separator, or with an ending too long, the last
/// three fifths). A line that starts with a port's path loses the path's
/// start first, as far as that is enough: "…/simlink: device gone; …" kept
/// the news where a cut in the middle took "gone" (a tester's, 81 columns).
enum MessageFit {
    /// `text` in at most `columns` characters.
    static func fit(_ text: String, columns: Int) -> String {
        guard text.count > columns, columns >= 20 else { return text }
        let characters = Array(text)
        let firstColon = characters.indices.dropLast().first { characters[$0] == ":" && characters[$0 + 1] == " " }
        if characters.first == "/", let colon = firstColon {
            let keep = colon - (characters.count - columns) - 1
            if keep >= 8 { return "…" + String(characters[(colon - keep)...]) }
        }
        // The ending after the last separator (the advice), when it fits beside a head of at least 10.
        // Inside brackets a ": " is a label's, no separator: "(host: tiltserial 1.0.0)" cut
        // there read "board: firmw… tiltserial 1.0.0), …" (a "; " there still is one).
        var tailStart: Int?
        for i in stride(from: characters.count - 2, through: 0, by: -1)
        where (characters[i] == ";" || (characters[i] == ":" && openingBracket(characters, enclosing: i) == nil))
            && characters[i + 1] == " " {
            if characters.count - (i + 2) <= columns - 12 { tailStart = i + 2 }
            break
        }
        var start = tailStart ?? characters.count - columns * 3 / 5
        if tailStart == nil {
            while start < characters.count - 1 && characters[start - 1] != " " { start += 1 }  // at a word's start
            // Not inside brackets either: after their end, when enough follows it.
            if let close = unmatchedClose(characters, from: start), characters.count - (close + 2) >= 10 { start = close + 2 }
        }
        var tail = Array(characters[start...])
        if tail.last == ")", unmatchedClose(tail, from: 0) == tail.count - 1 { tail.removeLast() }  // its "(" is cut
        let headRoom = columns - tail.count - 2  // "… " between
        var head = Array(characters.prefix(max(headRoom, 0)))
        if let space = head.lastIndex(of: " "), space > headRoom / 2 {
            head = Array(head[..<space])  // at a word's end
        }
        if let open = unmatchedOpen(head) {  // a bracket the cut would leave open: cut before it
            head = Array(head[..<open])
            while head.last == " " { head.removeLast() }
        }
        return String(head) + "… " + String(tail)
    }

    /// The "(" of the bracket pair around `index`, if any.
    static func openingBracket(_ characters: [Character], enclosing index: Int) -> Int? {
        var depth = 0
        for i in stride(from: index - 1, through: 0, by: -1) {
            if characters[i] == ")" { depth += 1 }
            if characters[i] == "(" {
                if depth == 0 { return i }
                depth -= 1
            }
        }
        return nil
    }

    /// The first ")" from `start` on that closes a bracket opened before `start`.
    static func unmatchedClose(_ characters: [Character], from start: Int) -> Int? {
        var depth = 0
        for i in start..<characters.count {
            if characters[i] == "(" { depth += 1 }
            if characters[i] == ")" {
                if depth == 0 { return i }
                depth -= 1
            }
        }
        return nil
    }

    /// The first "(" in `characters` left open at its end.
    static func unmatchedOpen(_ characters: [Character]) -> Int? {
        var open: [Int] = []
        for (i, c) in characters.enumerated() {
            if c == "(" { open.append(i) }
            if c == ")" { _ = open.popLast() }
        }
        return open.first
    }
}
