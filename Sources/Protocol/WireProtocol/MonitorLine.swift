import TiltCore

/// How `tiltserial monitor` writes each `MonitorItem`: text as it came, a
/// frame as its name and fields (`SAMPLE seq=12 t=1012000 ax=…`), other bytes
/// as `HEX 8f 13 0a`. Field names follow docs/protocol.md; values are as on
/// the wire (board time is the frame's 24-bit µs, raw sensor counts).
public enum MonitorLine {
    /// The line for one item, without its line end.
    public static func line(_ item: MonitorItem) -> String {
        switch item {
        case .text(let bytes): String(decoding: bytes, as: UTF8.self)
        case .frame(let frame): line(frame)
        case .bytes(let bytes): "HEX " + bytes.map { HexText.digits($0) }.joined(separator: " ")
        }
    }

    /// A frame's name and fields, e.g. `PONG token=7`.
    public static func line(_ frame: Frame) -> String {
        switch frame {
        case .hello(let h):
            let accel = h.accelRange.map { "accel=±\($0.fullScale)g" } ?? "afs_sel=\(h.accelFullScaleSelect)"
            let gyro = h.gyroRange.map { "gyro=±\($0.fullScale)dps" } ?? "fs_sel=\(h.gyroFullScaleSelect)"
            return "HELLO protocol=\(h.protocolVersion) firmware=\(h.firmwareMajor).\(h.firmwareMinor).\(h.firmwarePatch) "
                + "\(accel) \(gyro) rate=\(h.sampleRateHz)Hz display=\(h.displayWidth)x\(h.displayHeight) "
                + "tile=0x\(HexText.digits(h.contentTileID, uppercase: true)) sensor=\(h.sensorAnswered ? "ok" : "absent") display=\(h.displayAnswered ? "ok" : "absent")"
        case .sample(let s):
            let a = s.raw.accel, g = s.raw.gyro
            return "SAMPLE seq=\(s.sequence) t=\(s.timeMicros & 0xFF_FFFF) ax=\(a.x) ay=\(a.y) az=\(a.z) "
                + "temp=\(s.raw.temperature) gx=\(g.x) gy=\(g.y) gz=\(g.z)"
        case .pong(let p):
            return "PONG token=\(p.token)"
        case .ready(let r):
            return "READY t=\(r.boardTime & 0xFF_FFFF) \(r.idle ? "idle" : "frame")"
        case .parts(let p):
            return "PARTS sensor=0x\(HexText.digits(p.sensorWhoAmI))@0x\(HexText.digits(p.sensorAddress)) display=\(p.displayKind)@0x\(HexText.digits(p.displayAddress)) flags=\(p.flags)"
        case .offsets(let o):
            var flags: [String] = []
            if o.flags.contains(.fired) { flags.append("fired") }
            if o.flags.contains(.engaged) { flags.append("engaged") }
            if o.flags.contains(.paused) { flags.append("paused") }
            return "OFFSETS seq=\(o.sequence) x=\(o.viewportX) y=\(o.viewportY) ribbon_x=\(o.ribbonX) "
                + "ribbon_bottom=\(o.ribbonBottom) flags=\(flags.isEmpty ? "-" : flags.joined(separator: ","))"
        case .hostHello(let h):
            return "HOST_HELLO protocol=\(h.protocolVersion)"
        case .ping(let p):
            return "PING token=\(p.token)"
        case .configure(let c):
            return "CONFIGURE rate=\(c.sampleRateHz)Hz afs_sel=\(c.accelFullScaleSelect) fs_sel=\(c.gyroFullScaleSelect)"
        case .drawer(let d):
            func item(_ i: UInt8) -> String { i == DrawerFrame.noItem ? "-" : String(i) }
            return "DRAWER height=\(d.height) shown=\(d.shown) scroll=\(d.scroll) current=\(item(d.current)) "
                + "drag=\(item(d.dragItem))@\(d.dragLeft),\(d.dragTop) pins=\(d.pinCount)"
        case .pin(let p):
            return "PIN slot=\(p.slot) item=\(p.item) x=\(p.x) y=\(p.y)"
        case .sync(let s):
            return "SYNC \(s.enabled ? "on" : "off")"
        case .describe:
            return "DESCRIBE"
        case .display(let d):
            return "DISPLAY op=\(d.operation) kind=\(d.kind)"
        }
    }

}
