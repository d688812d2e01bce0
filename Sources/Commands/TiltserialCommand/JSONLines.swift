import TiltAssets
import TiltCore
import TiltPhysics
import TiltPipeline
import WireProtocol

/// `--json`: one object per line on stdout. Only data-derived events, so a live
/// run and a replay of its recording print the same bytes. Numbers are exact,
/// so a reader can check the engine bit for bit: Q15.16 values as their full
/// decimal expansion (computed from integers), the recipe's Float32 offsets in
/// Swift's shortest round-trip form (deterministic, no locale).
/// Schema: docs/usage.md.
enum JSONLines {
    /// The line for an event (newline included), or nil for events not printed.
    /// `items`: the drawer's item names, by index.
    static func line(for event: HostEvent, items: [String] = TiltAssets.itemNames) -> String? {
        switch event {
        case .tick(let tick, let wire):
            var line = JSONBytes()
            line.writeTickLine(tick, sequence: wire.frame.sequence)
            return line.string
        case .formatDetected(let format):
            return "{\"event\":\"format\",\"format\":\"\(name(format))\"}\n"
        case .hello(let h):
            return "{\"event\":\"hello\",\"protocol\":\(h.protocolVersion),\"firmware\":\"\(h.firmwareMajor).\(h.firmwareMinor).\(h.firmwarePatch)\""
                + ",\"accel_fs_g\":\(h.accelRange.map { String($0.fullScale) } ?? "null")"
                + ",\"gyro_fs_dps\":\(h.gyroRange.map { String($0.fullScale) } ?? "null")"
                + ",\"rate_hz\":\(h.sampleRateHz),\"display\":\"\(h.displayWidth)x\(h.displayHeight)\""
                + ",\"tile_id\":\"\(HexText.prefixed(h.contentTileID))\",\"sensor_ok\":\(h.sensorAnswered),\"display_ok\":\(h.displayAnswered)}\n"
        case .versionMismatch(let board, let host):
            return "{\"event\":\"version_mismatch\",\"board\":\(board),\"host\":\(host)}\n"
        case .tileMismatch(let board, let host):
            return "{\"event\":\"tile_mismatch\",\"board\":\"\(HexText.prefixed(board))\",\"host\":\"\(HexText.prefixed(host))\"}\n"
        case .unsupportedRange(let a, let g):
            return "{\"event\":\"unsupported_range\",\"afs_sel\":\(a),\"fs_sel\":\(g)}\n"
        case .implausibleRate(let hz):
            return "{\"event\":\"implausible_rate\",\"rate_hz\":\(hz)}\n"
        case .fired:
            return nil  // already in the tick's "fired"
        case .sample:
            return nil  // calibrate's, which prints no JSON
        case .sceneFrames, .frameSync, .view, .describeParts:
            return nil  // bytes for the board
        case .parts(let p):
            // An absent part (address 0) has no name, kind or clock: null, as the text line says "no sensor".
            let sensor = p.sensorAddress == 0 ? "null" : "\"\(p.sensorName)\""
            let present = p.displayAddress != 0
            let kind = present ? "\(p.displayKind)" : "null", name = present ? "\"\(p.displayName)\"" : "null"
            let clock = present ? p.displayClock.map { "\($0.hertz)" } ?? "null" : "null"
            return "{\"event\":\"parts\",\"sensor_address\":\(p.sensorAddress),\"sensor_who_am_i\":\(p.sensorWhoAmI)"
                + ",\"sensor\":\(sensor),\"display_address\":\(p.displayAddress),\"display_kind\":\(kind),\"display\":\(name)"
                + ",\"display_clock_hz\":\(clock),\"display_clock_fell_back\":\(present ? "\(p.clockFellBack)" : "null")"
                + ",\"display_stored\":\(p.kindStored)}\n"
        case .drawer(let tick, let open):
            return "{\"event\":\"drawer\",\"open\":\(open),\"t_us\":\(tick.timeMicros)}\n"
        case .pulledOut(let tick, let item):
            return "{\"event\":\"pull_out\",\"item\":\"\(escaped(itemName(item, items)))\",\"t_us\":\(tick.timeMicros)}\n"
        case .pinned(let tick, let pin, _):
            return "{\"event\":\"pin\",\"item\":\"\(escaped(itemName(pin.item, items)))\",\"x\":\(pin.x),\"y\":\(pin.y),\"t_us\":\(tick.timeMicros)}\n"
        }
    }

    /// An item's name ("item7" for an index past the names: a board or file from another build).
    static func itemName(_ index: Int, _ names: [String]) -> String {
        names.indices.contains(index) ? names[index] : "item\(index)"
    }

    /// A hook that could not be started at run time.
    static func hookFailed(option: String, message: String) -> String {
        "{\"event\":\"hook_failed\",\"option\":\"\(option)\",\"message\":\"\(escaped(message))\"}\n"
    }

    /// JSON string escaping for text we did not write ourselves.
    static func escaped(_ text: String) -> String { JSONString.escaped(text) }

    static func name(_ format: StreamFormat) -> String {
        switch format {
        case .binaryProtocol: "binary"
        case .i2cdevlib: "i2cdevlib"
        case .motionCal: "motioncal"
        }
    }

    /// A Q15.16 value exactly (`JSONBytes.append(_: Fixed)`).
    static func exact(_ value: Fixed) -> String {
        var text = JSONBytes()
        text.append(value)
        return text.string
    }

    /// A Q15.16 value with 6 decimals (the live view, `--on-pull`'s environment), rounded half away from zero.
    static func decimal(_ value: Fixed) -> String {
        let raw = Int64(value.raw)
        let scaled = (abs(raw) * 1_000_000 + 32_768) >> 16
        let whole = scaled / 1_000_000, frac = scaled % 1_000_000
        let fracText = String(frac)
        let sign = raw < 0 && scaled != 0 ? "-" : ""
        return "\(sign)\(whole).\(String(repeating: "0", count: 6 - fracText.count))\(fracText)"
    }
}
