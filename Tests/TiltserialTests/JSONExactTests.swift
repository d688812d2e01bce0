import Foundation
import Testing
import TiltAssets
import TiltCore
import TiltPhysics
import TiltPipeline
import TiltserialSettings
import WireProtocol
@testable import TiltserialCommand

/// `--json` prints the engine's values exactly (docs/usage.md): read back, they
/// equal the engine's state bit for bit, in both physics modes; and for a held
/// tilt they are the figures the recipe gives by hand.
@Suite struct JSONExactTests {
    /// Every tick of 4 s of a moving tilt, with its JSON line.
    static func lines(_ mode: IntegratorMode) -> [(Tick, String)] {
        var settings = PhysicsSettings()
        settings.mode = mode
        var engine = try! TiltEngine(settings: settings, geometry: TiltAssets.tile.geometry, ribbonArt: TiltAssets.ribbon.mask)
        var result: [(Tick, String)] = []
        var sequence: UInt8 = 0
        for sample in Stream.samples(0..<4000).samples {
            engine.ingest(sample) { tick in
                let event = HostEvent.tick(tick, OffsetsWire(OffsetsFrame(tick: tick, sequence: sequence)))
                result.append((tick, JSONLines.line(for: event) ?? ""))
                sequence &+= 1
            }
        }
        return result
    }

    /// The number text after `"key":`.
    static func number(_ key: String, in line: String) -> Substring? {
        guard let range = line.range(of: "\"\(key)\":") else { return nil }
        let rest = line[range.upperBound...]
        return rest.prefix { $0 != "," && $0 != "}" }
    }

    /// A decimal with at most 16 fractional digits as Q15.16, if it is one exactly.
    static func fixedRaw(_ text: Substring) -> Int32? {
        let negative = text.hasPrefix("-")
        let digits = negative ? text.dropFirst() : text
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count <= 16, let whole = Int64(parts[0]),
              let fraction = UInt64(parts[1] + String(repeating: "0", count: 16 - parts[1].count))
        else { return nil }
        // f / 10^16 × 2^16 = f / 5^16: an integer exactly when the decimal is a Q15.16 value.
        let fiveTo16: UInt64 = 152_587_890_625
        guard fraction % fiveTo16 == 0 else { return nil }
        let raw = whole * 65536 + Int64(fraction / fiveTo16)
        return Int32(exactly: negative ? -raw : raw)
    }

    @Test func recipeModePrintsTheEnginesFloat32OffsetsBitForBit() throws {
        let lines = Self.lines(.recipe)
        #expect(lines.count > 100)
        #expect(Set(lines.map { $0.0.viewportX }).count > 10, "the view moves")
        for (tick, line) in lines {
            let exact = try #require(tick.recipeOffsets)
            let x = try #require(Self.number("x", in: line)), y = try #require(Self.number("y", in: line))
            #expect(Float(String(x))?.bitPattern == exact.x.bitPattern, "x \(x) vs \(exact.x)")
            #expect(Float(String(y))?.bitPattern == exact.y.bitPattern, "y \(y) vs \(exact.y)")
            #expect(Self.fixedRaw(try #require(Self.number("ribbon", in: line))) == tick.stretch.raw)
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "valid JSON: \(line)")
        }
    }

    @Test func smoothModePrintsTheExactFixedPointValues() throws {
        let lines = Self.lines(.smooth)
        #expect(lines.count > 100)
        #expect(Set(lines.map { $0.0.viewportX }).count > 10, "the view moves")
        for (tick, line) in lines {
            #expect(tick.recipeOffsets == nil)
            #expect(Self.fixedRaw(try #require(Self.number("x", in: line))) == tick.x.raw, "\(line)")
            #expect(Self.fixedRaw(try #require(Self.number("y", in: line))) == tick.y.raw, "\(line)")
            #expect(Self.fixedRaw(try #require(Self.number("ribbon", in: line))) == tick.stretch.raw, "\(line)")
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "valid JSON: \(line)")
        }
    }

    /// The lines `--physics recipe --json` prints for `Stream.heldTilt`, every
    /// field derived by hand from ../shared/recipes.md §1 (see
    /// `Stream.recipeOffsets`), not from TiltEngine: tick k (from 1) is at
    /// board time 1000 + 30 000 k µs with sequence k − 1. Both axes' input is
    /// −0.5 (xx = −ax, yy = (az + 0.5) × 2), so the gain is the float 0.005 from
    /// the first sample on and the velocity −gain × input = 0.005f / 2 exactly
    /// (halving a float is exact); each tick adds it to the float offset, so x
    /// and y after tick k are that velocity summed k times in float.
    @Test func recipeModeLinesForAHeldTiltAreTheRecipesFiguresByHand() throws {
        var settings = HostSettings()
        settings.physics.mode = .recipe
        var session = try makeHostSession(settings: settings, art: TiltAssets.load())
        var lines: [String] = []
        session.receive(Stream.hello() + Stream.heldTilt(0..<1500).wire, at: .zero) { event in
            if case .tick = event, let line = JSONLines.line(for: event) { lines.append(line) }
        }
        let frames = Stream.recipeOffsets(forHeldTilt: 1500)
        #expect(lines.count == 49 && frames.count == 49)  // ⌊1499 × 1000 / 30 000⌋ ticks
        let velocity = Float(0.005) / 2
        var offset: Float = 0
        for (index, (line, frame)) in zip(lines, frames).enumerated() {
            let k = index + 1
            offset += velocity
            #expect(line.hasPrefix("{\"t_us\":\(1000 + 30_000 * k),\"seq\":\(k - 1),\"x\":"), "\(line)")
            #expect(Float(String(try #require(Self.number("x", in: line))))?.bitPattern == offset.bitPattern, "tick \(k): \(line)")
            #expect(Float(String(try #require(Self.number("y", in: line))))?.bitPattern == offset.bitPattern, "tick \(k): \(line)")
            #expect(line.hasSuffix(",\"px\":\(frame.viewportX),\"py\":\(frame.viewportY),\"ribbon\":0.0,\"ribbon_x\":250,"
                + "\"ribbon_bottom\":15,\"engaged\":false,\"fired\":false}\n"), "\(line)")
        }
        #expect(lines.first?.contains(#""x":0.0025,"#) == true, "0.005f / 2 prints as its shortest form")
    }

    @Test func fixedPointDecimalsAreExact() {
        #expect(JSONLines.exact(Fixed(raw: 0)) == "0.0")
        #expect(JSONLines.exact(Fixed(raw: 1)) == "0.0000152587890625")
        #expect(JSONLines.exact(Fixed(raw: -1)) == "-0.0000152587890625")
        #expect(JSONLines.exact(Fixed(raw: 65536)) == "1.0")
        #expect(JSONLines.exact(Fixed(raw: 32768 + 65536 * 3)) == "3.5")
        #expect(JSONLines.exact(Fixed(raw: Int32.min)) == "-32768.0")
        #expect(JSONLines.exact(Fixed(raw: Int32.max)) == "32767.9999847412109375")
    }

    /// Every field of a tick line, read back by a JSON parser, equals the tick's,
    /// at the extremes of each integer type too (the line is written digit by digit).
    @Test(arguments: [
        (UInt64(0), UInt8(0), 0, 0, 0, 0, false, false, Float(0)),
        (UInt64.max, UInt8.max, Int.min, Int.max, -1, 63, true, true, Float(-1.17549435e-38)),
        (UInt64(1_234_567), UInt8(7), -128, 255, 1000, -9, true, false, Float.greatestFiniteMagnitude),
    ])
    func everyFieldOfTheTickLineReadsBack(
        t: UInt64, seq: UInt8, px: Int, py: Int, ribbonX: Int, ribbonBottom: Int, engaged: Bool, fired: Bool, x: Float
    ) throws {
        let tick = Tick(time: BoardTime(micros: t), index: 0, x: Fixed(raw: -3), y: Fixed(raw: Int32.min), recipeOffsets: RecipeOffsets(x: x, y: -x),
                        viewportX: px, viewportY: py, stretch: Fixed(raw: Int32.max), ribbonX: ribbonX, ribbonBottom: ribbonBottom,
                        engaged: engaged, fired: fired, wiggling: false)
        var line = JSONBytes()
        line.writeTickLine(tick, sequence: seq)
        #expect(line.bytes.last == UInt8(ascii: "\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.bytes)) as? [String: Any], "\(line.string)")
        #expect(object.count == 11)
        #expect((object["t_us"] as? NSNumber)?.uint64Value == t, "\(line.string)")
        #expect(object["seq"] as? Int == Int(seq))
        #expect(object["px"] as? Int == px && object["py"] as? Int == py, "\(line.string)")
        #expect(object["ribbon_x"] as? Int == ribbonX && object["ribbon_bottom"] as? Int == ribbonBottom)
        #expect(object["engaged"] as? Bool == engaged && object["fired"] as? Bool == fired)
        #expect(Float(String(try #require(Self.number("x", in: line.string))))?.bitPattern == x.bitPattern, "\(line.string)")
        #expect(Float(String(try #require(Self.number("y", in: line.string))))?.bitPattern == (-x).bitPattern)
        #expect(Self.fixedRaw(try #require(Self.number("ribbon", in: line.string))) == Int32.max)
    }
}

/// The `parts` event: what the board found, with null for a part it did not
/// (the sensor was named "MPU-6500 family" and the display kind 0 at address 0).
@Suite struct JSONPartsEventTests {
    func line(_ parts: PartsFrame) throws -> [String: Any] {
        let text = try #require(JSONLines.line(for: .parts(parts)))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func foundPartsAreNamedWithTheDisplaysClock() throws {
        let found = try line(PartsFrame(sensorAddress: 0x69, sensorWhoAmI: 0x70, displayAddress: 0x3D, displayKind: 1,
                                        flags: PartsFrame.kindStoredFlag | DisplayClock.kilohertz800.rawValue << 2))
        #expect(found["sensor"] as? String == "MPU-6500" && found["sensor_address"] as? Int == 0x69)
        #expect(found["display"] as? String == "SH1106 128x64" && found["display_kind"] as? Int == 1)
        #expect(found["display_clock_hz"] as? Int == 800_000 && found["display_stored"] as? Bool == true)
        #expect(found["display_clock_fell_back"] as? Bool == false)
        let slow = try line(PartsFrame(sensorAddress: 0x68, sensorWhoAmI: 0x68, displayAddress: 0x3C,
                                       flags: PartsFrame.clockFellBackFlag | DisplayClock.kilohertz100.rawValue << 2))
        #expect(slow["display_clock_hz"] as? Int == 100_000 && slow["display_clock_fell_back"] as? Bool == true)
    }

    @Test func aPartNotFoundIsNull() throws {
        let none = try line(PartsFrame(sensorAddress: 0, sensorWhoAmI: 0, displayAddress: 0))
        #expect(none["sensor"] is NSNull && none["sensor_address"] as? Int == 0)
        #expect(none["display"] is NSNull && none["display_kind"] is NSNull && none["display_clock_hz"] is NSNull)
        #expect(none["display_clock_fell_back"] is NSNull)
    }
}
