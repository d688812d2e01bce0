import Testing
@testable import TiltsimCommand

/// Which pins a diagram's wires join: whole nets, in one order every run,
/// however many parts share a pin (a GND wire per button made one chain as
/// long as the diagram, walked for every button).
@Suite struct WokwiNetsTests {
    @Test func everyButtonOnOneGroundIsOneNetSorted() {
        let count = 300
        var parts = [WokwiDiagram.Part(type: "wokwi-arduino-uno", id: "uno", attrs: [:])]
        var wires: [(String, String)] = []
        for i in 0..<count {
            parts.append(WokwiDiagram.Part(type: "wokwi-pushbutton", id: "b\(i)", attrs: [:]))
            wires.append(("b\(i):2.l", "uno:GND.1"))
            wires.append(("b\(i):1.l", "uno:\(2 + i % 2)"))
        }
        let nets = WokwiNets(WokwiDiagram(parts: parts, connections: wires), throughResistors: false)
        let ground = nets.net(of: "uno:GND.1")
        #expect(ground.count == 1 + 2 * count, "each button's 2.l and 2.r, and the pin")
        #expect(ground == ground.sorted())
        #expect(nets.net(of: "b7:2.r") == ground, "a button's other leg on that side")
        #expect(nets.net(of: "b4:1.r").filter { $0.hasPrefix("uno:") } == ["uno:2"])
        #expect(nets.net(of: "nowhere:1") == ["nowhere:1"])
    }
}
