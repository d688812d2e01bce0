import Foundation
import TiltExitStatus

/// A Wokwi diagram.json as written: parts (type, id, attrs) and connections
/// (`[from, to, colour, route]`, pins named `part:PIN`). The wires' meaning is
/// `WokwiNets`'; what runs is `WokwiSetup`'s.
struct WokwiDiagram {
    /// One part: its type ("wokwi-mpu6050"), id ("imu1") and attributes (text, as Wokwi keeps them).
    struct Part {
        var type: String
        var id: String
        var attrs: [String: String]
    }

    var parts: [Part]
    /// Each wire's two ends, "part:PIN".
    var connections: [(String, String)]

    /// Reads diagram.json's text; `file` names it in messages.
    static func parse(_ data: Data, file: String) -> Result<WokwiDiagram, WokwiProblem> {
        let tree: Any
        do throws(CommandFailure) { try InputFile.checkJSONSize(data, file: file) } catch { return .failure(WokwiProblem(error.message)) }
        do { tree = try JSONSerialization.jsonObject(with: data) } catch {
            return .failure(WokwiProblem("\(file):\(JSONSyntaxPlace.describe(error, in: data)); not valid JSON: check it in Wokwi's editor"))
        }
        guard let root = tree as? [String: Any], let list = root["parts"] as? [Any] else {
            return .failure(WokwiProblem("\(file): no \"parts\" list; a diagram.json is {\"version\": 1, \"parts\": [...], \"connections\": [...]}"))
        }
        var parts: [Part] = []
        for (index, item) in list.enumerated() {
            guard let map = item as? [String: Any], let type = map["type"] as? String, let id = map["id"] as? String else {
                return .failure(WokwiProblem("\(file): part \(index + 1) needs a \"type\" and an \"id\" (text)"))
            }
            var attrs: [String: String] = [:]
            for (key, value) in map["attrs"] as? [String: Any] ?? [:] {
                if let text = value as? String { attrs[key] = text } else if let number = value as? NSNumber { attrs[key] = number.stringValue }
            }
            parts.append(Part(type: type, id: id, attrs: attrs))
        }
        var connections: [(String, String)] = []
        for (index, item) in (root["connections"] as? [Any] ?? []).enumerated() {
            guard let wire = item as? [Any], wire.count >= 2, let from = wire[0] as? String, let to = wire[1] as? String else {
                return .failure(WokwiProblem("\(file): connection \(index + 1) is [\"part:PIN\", \"part:PIN\", colour, route]"))
            }
            connections.append((from, to))
        }
        return .success(WokwiDiagram(parts: parts, connections: connections))
    }
}

/// Which pins the wires join: nets of "part:PIN" names, with a breadboard's
/// strips joined as the breadboard joins them. `throughResistors` also joins a
/// resistor's two ends (to find the pin an LED hangs on); without it a pull-up
/// resistor keeps a button's pin apart from 5 V.
struct WokwiNets {
    private var parent: [String: String] = [:]
    /// Each net's members, sorted, by its root: built once, so asking for a
    /// net costs a lookup (a diagram of 400 buttons took 8 s asking each
    /// button's net by walking every pin).
    private var members: [String: [String]] = [:]

    init(_ diagram: WokwiDiagram, throughResistors: Bool) {
        let breadboards = Set(diagram.parts.filter { $0.type.hasPrefix("wokwi-breadboard") }.map(\.id))
        for (a, b) in diagram.connections {
            union(Self.node(a, breadboards), Self.node(b, breadboards))
        }
        if throughResistors {
            for part in diagram.parts where part.type == "wokwi-resistor" { union(part.id + ":1", part.id + ":2") }
        }
        // A pushbutton's two legs on each side are one contact ("always connected", Wokwi's docs).
        for part in diagram.parts where part.type.hasPrefix("wokwi-pushbutton") {
            union(part.id + ":1.l", part.id + ":1.r")
            union(part.id + ":2.l", part.id + ":2.r")
        }
        // A slide switch joins its common pin 2 to 1 (handle left, attr value "") or 3 (value "1").
        for part in diagram.parts where part.type == "wokwi-slide-switch" {
            union(part.id + ":2", part.id + (part.attrs["value"] == "1" ? ":3" : ":1"))
        }
        for node in parent.keys { members[root(node), default: []].append(node) }
        for key in members.keys { members[key]!.sort() }  // the same order every run
    }

    /// The node a pin name stands for: a breadboard's "12t.c" is its strip "12t", "tp.3" its rail "tp".
    private static func node(_ name: String, _ breadboards: Set<String>) -> String {
        guard let colon = name.firstIndex(of: ":"), breadboards.contains(String(name[..<colon])) else { return name }
        let pin = name[name.index(after: colon)...]
        guard let dot = pin.firstIndex(of: ".") else { return name }
        let head = pin[..<dot], tail = pin[pin.index(after: dot)...]
        if ["tp", "tn", "bp", "bn"].contains(head) { return name[..<colon] + ":" + head }
        return name[..<colon] + ":" + (head.last.map { "tb".contains($0) } == true ? head : tail)
    }

    private func root(_ node: String) -> String {
        var node = node
        while let up = parent[node], up != node { node = up }
        return node
    }

    /// Joins the nets of `a` and `b`, pointing every node walked at the new
    /// root, so chains stay short (a wire per button to one GND made a chain
    /// as long as the diagram).
    private mutating func union(_ a: String, _ b: String) {
        let ra = root(a), rb = root(b)
        if parent[ra] == nil { parent[ra] = ra }
        if parent[rb] == nil { parent[rb] = rb }
        if ra != rb { parent[ra] = rb }
        for start in [a, b] {
            var node = start
            while let up = parent[node], up != rb { parent[node] = rb; node = up }
        }
    }

    /// Every "part:PIN" joined to `pin` (itself included), sorted.
    func net(of pin: String) -> [String] {
        guard let net = members[root(pin)] else { return [pin] }
        return net.contains(pin) ? net : (net + [pin]).sorted()
    }
}
