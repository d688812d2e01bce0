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
        var tailStart: Int?
        for i in stride(from: characters.count - 2, through: 0, by: -1)
        where (characters[i] == ":" || characters[i] == ";") && characters[i + 1] == " " {
            if characters.count - (i + 2) <= columns - 12 { tailStart = i + 2 }
            break
        }
        var start = tailStart ?? characters.count - columns * 3 / 5
        if tailStart == nil { while start < characters.count - 1 && characters[start - 1] != " " { start += 1 } }  // at a word's start
        let tail = String(characters[start...])
        let headRoom = columns - tail.count - 2  // "… " between
        var head = String(characters.prefix(max(headRoom, 0)))
        if let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) > headRoom / 2 {
            head = String(head[..<space])  // at a word's end
        }
        return head + "… " + tail
    }
}
