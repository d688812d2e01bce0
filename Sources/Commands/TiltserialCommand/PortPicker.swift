import SerialIO
import TiltCore

/// `tiltserial` with no port (or `--port auto`): the only likely board, or a stop.
enum PortPicker {
    /// The port a command was given (positional or `--port`), or, for none or
    /// `auto`, the one `pick` finds (saying so through `say`).
    static func resolve(_ given: String?, say: (String) -> Void) throws(Failure) -> String {
        if let given, given != "auto" { return given }
        return try pick(say: say)
    }

    /// `ports`: the listing (tests fake it); `systemRoot`: where a brltty
    /// conflict is looked for when no board is found.
    static func pick(say: (String) -> Void, ports listed: [PortInfo]? = nil, systemRoot: String = "/",
                     emulatedLinks: () -> [EmulatedLinks.Link] = { EmulatedLinks.running() }) throws(Failure) -> String {
        let ports: [PortInfo]
        if let listed { ports = listed } else {
            do { ports = try SerialPortLister.list() } catch { throw Failure(error) }
        }
        let boards = SerialPortLister.likelyBoards(ports)
        if boards.count == 1 {
            say("using \(boards[0].preferredName) (\(describe(boards[0])), the only board found)")
            return boards[0].preferredName
        }
        if boards.isEmpty, let conflict = BrlttyConflict.find(root: systemRoot) {
            throw Failure(.noBoardFound, "no board found: " + conflict.message)
        }
        let head = boards.isEmpty
            ? "no board found; plug one in, or name the port: tiltserial PORT"
            : "\(boards.count) boards found; name one: tiltserial PORT"
        // An emulated board is never picked (a pty could be anyone's), but named, as list does.
        var emulated = ""
        if boards.isEmpty {
            let links = emulatedLinks()
            emulated = links.prefix(2).map { "; tiltsim's board: tiltserial \($0.path)" }.joined()
            if links.count > 2 { emulated += "; \(links.count - 2) more tiltsim board\(links.count == 3 ? "" : "s"): tiltserial list" }
        }
        throw Failure(.noBoardFound, head + listing(boards.isEmpty ? ports : boards, present: boards.isEmpty) + emulated)
    }

    /// The ports on the error's one line (it was a list under it, which the
    /// error line's escaping turned into "\n"): " (ports present: A; B)" or
    /// " (A: what it is; B: ...)", at most `shown`, then how many more.
    static func listing(_ ports: [PortInfo], present: Bool, shown: Int = 4) -> String {
        guard !ports.isEmpty else { return "" }
        let named = ports.prefix(shown).map { port -> String in
            let what = describe(port)
            return what.isEmpty ? port.preferredName : port.preferredName + ": " + what
        }
        let more = ports.count > shown ? "; \(ports.count - shown) more: tiltserial list" : ""
        return " (" + (present ? "ports present: " : "") + named.joined(separator: "; ") + more + ")"
    }

    static func describe(_ p: PortInfo) -> String {
        var parts: [String] = []
        if let vid = p.usbVendorID, let pid = p.usbProductID { parts.append(HexText.digits(vid) + ":" + HexText.digits(pid)) }
        if let m = p.manufacturer { parts.append(m) }
        if let pr = p.product ?? p.description { parts.append(pr) }
        if let s = p.serialNumber { parts.append("serial " + s) }
        if let v = p.knownBoardVendor, p.manufacturer == nil { parts.append(v) }
        return parts.joined(separator: ", ")
    }
}
