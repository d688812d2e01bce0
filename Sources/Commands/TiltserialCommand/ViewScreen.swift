import TiltDisplay
import TiltPhysics
import TiltPipeline
import WireProtocol

/// Everything one redraw of the live view shows.
struct ViewModel {
    var port: String
    var snapshot: HostSnapshot
    /// Samples a second over the last refresh.
    var rate: Double
    /// The last sample, in units (nil before the first).
    var reading: SensorReading?
    var history: SensorHistory
    var message: String
    var messageIsWarning = false
    /// Keys are read: show `q` and `c`.
    var keys: Bool
    /// Losses, errors or a fire within the last moments: drawn louder.
    var losingNow = false
    var erringNow = false
    var firedNow = false
    /// What the board shows.
    var screen: Screen
}

/// The live view as lines of text for a layout: pure, so every size can be
/// checked without a terminal. At most `layout.rows` lines, none wider than
/// `layout.columns`.
enum ViewScreen {
    static func lines(_ m: ViewModel, _ layout: ViewLayout) -> [StyledLine] {
        let columns = layout.columns
        var lines: [StyledLine] = [status(m, columns: columns)]
        if layout.infoLine { lines.append(info(m, columns: columns)) }
        let board = boardLines(m, layout.board)
        let boardWidth = ViewLayout.boardSize(layout.board).columns
        switch (layout.panel, layout.placement) {
        case (.none, _):
            lines += board
        case (.compact, .beside), (.full, .beside):
            let width = columns - boardWidth - ViewLayout.gap
            let panel = layout.panel == .full
                ? stack(fullSections(m, width: width), rows: board.count)
                : compactColumn(m, width: width)
            for (i, line) in board.enumerated() {
                var row = line
                row.append(String(repeating: " ", count: ViewLayout.gap))
                if i < panel.count { row.append(panel[i]) }
                lines.append(row)
            }
            if layout.panel == .compact {
                lines.append(sparkRow(m, width: columns))
                lines.append(linkRow(m))
            }
        case (.compact, .below):
            lines += board
            lines += compactBelow(m, width: columns)
            if layout.linkRow { lines.append(linkRow(m)) }
        case (.full, .below):
            lines += board
            lines += flow(fullSections(m, width: ViewLayout.fullWidth), columns: columns, rows: ViewLayout.fullBelowRows)
        }
        lines.append(ribbon(m))
        lines.append(StyledLine(MessageFit.fit(m.message, columns: columns), m.messageIsWarning ? .warning : .plain))
        return Array(lines.prefix(layout.rows)).map { $0.cut(to: columns) }
    }

    // MARK: - Status and info

    /// Rate, lost, errors and fires always; the name and the keys when they fit.
    static func status(_ m: ViewModel, columns: Int) -> StyledLine {
        let c = m.snapshot.counters
        var core = StyledLine()
        core.append("rate \(Figures.rate(m.rate)) Hz")
        core.append("  ")
        core.append("lost \(c.lostFrames)", m.losingNow ? .bad : (c.lostFrames > 0 ? .warning : .plain))
        core.append("  ")
        core.append("errors \(c.errors)", m.erringNow ? .bad : (c.errors > 0 ? .warning : .plain))
        core.append("  ")
        core.append("fires \(c.fires)", m.firedNow ? .fire : .plain)
        let keys = m.keys ? "q quit  c set rest pose" : "Ctrl-C quits"
        var line = StyledLine()
        if core.width + 12 + 2 + keys.count <= columns { line.append("tiltserial  ") }
        line.append(core)
        if line.width + 2 + TerminalWidth.columns(keys) <= columns {
            line.append(String(repeating: " ", count: columns - line.width - TerminalWidth.columns(keys)))
            line.append(keys, .dim)
        }
        return line
    }

    /// Port, format, firmware and ranges.
    /// Too wide, it gives up the format first when a HELLO named the firmware
    /// (only our sketch says HELLO), then whole parts from its end: at 80
    /// columns a cut at the edge left the ranges out and a "·" dangling.
    static func info(_ m: ViewModel, columns: Int) -> StyledLine {
        var parts = [m.port, m.snapshot.format?.rawValue ?? "format: detecting…"]
        if let h = m.snapshot.hello {
            parts.append("firmware \(h.firmwareMajor).\(h.firmwareMinor).\(h.firmwarePatch)")
            parts.append("\(h.sampleRateHz) Hz")
        }
        let conv = m.snapshot.converter
        parts.append("±\(conv.accelRange.fullScale) g  ±\(conv.gyroRange.fullScale) °/s")
        func joined() -> String { parts.joined(separator: " · ") }
        if joined().count > columns, m.snapshot.hello != nil { parts.remove(at: 1) }
        while parts.count > 1, joined().count > columns { parts.removeLast() }
        return StyledLine(joined(), .dim)
    }

    // MARK: - Board

    static func boardLines(_ m: ViewModel, _ density: CellDensity?) -> [StyledLine] {
        guard let density else { return [] }
        let rule = String(repeating: "─", count: density.columns)
        var lines = [StyledLine("┌" + rule + "┐")]
        for row in density.lines(m.screen) { lines.append(StyledLine("│" + row + "│")) }
        lines.append(StyledLine("└" + rule + "┘"))
        return lines
    }

    // MARK: - Ribbon and message

    static func ribbon(_ m: ViewModel) -> StyledLine {
        var line = StyledLine("ribbon ")
        guard let t = m.snapshot.lastTick else {
            line.append("(no tick yet)", .dim)
            return line
        }
        let stretch = t.stretchValue, threshold = m.snapshot.fireThreshold
        line.append("▕" + MeterBar.text(stretch, full: threshold, width: 12) + "▏", m.firedNow ? .fire : .plain)
        line.append(" \(Figures.fixed(stretch, 1))/\(Figures.fixed(threshold, 0)) pt  ")
        if m.firedNow {
            line.append("FIRED", .fire)
        } else {
            line.append(t.engaged ? "pulled" : (t.wiggling ? "wiggling" : "at rest"))
        }
        line.append("   view \(t.viewportX),\(t.viewportY)  x \(Figures.fixed(t.xValue, 3)) y \(Figures.fixed(t.yValue, 3))", .dim)
        return line
    }

    // MARK: - Sensor panel

    static func restText(_ m: ViewModel) -> String {
        m.snapshot.mode == .smooth ? Figures.fixed(m.snapshot.restDegrees, 1) + "°" : "recipe"
    }

    /// One value a line, `width` columns (13 at 80 × 24).
    static func compactColumn(_ m: ViewModel, width: Int) -> [StyledLine] {
        guard let r = m.reading else { return [StyledLine("waiting for", .dim), StyledLine("samples…", .dim)] }
        func row(_ label: String, _ value: String) -> StyledLine {
            StyledLine(label, .dim).appending(Figures.right(value, width - label.count))
        }
        let axes: [(String, Int16, Double)] = [("ax", r.raw.accel.x, r.accel.x), ("ay", r.raw.accel.y, r.accel.y), ("az", r.raw.accel.z, r.accel.z)]
        var lines: [StyledLine] = []
        for (name, counts, g) in axes {
            lines.append(row(name, String(counts)))
            lines.append(row("", Figures.fixed(g, 2) + " g"))
        }
        lines.append(row("pitch", Figures.fixed(r.pitch, 1) + "°"))
        lines.append(row("roll", Figures.fixed(r.roll, 1) + "°"))
        lines.append(row("gx", Figures.fixed(r.gyro.x, 1) + "°/s"))
        lines.append(row("gy", Figures.fixed(r.gyro.y, 1) + "°/s"))
        lines.append(row("gz", Figures.fixed(r.gyro.z, 1) + "°/s"))
        lines.append(row("temp", r.temperature.map { Figures.fixed($0, 1) + "°C" } ?? "—"))
        lines.append(row("rest", restText(m)))
        lines.append(row("|a|", Figures.fixed(r.magnitude, 2) + " g"))
        return lines
    }

    /// Pitch and roll sparklines side by side across `width`.
    static func sparkRow(_ m: ViewModel, width: Int) -> StyledLine {
        let half = (width - 1) / 2
        var line = spark(m, .pitch, label: "pitch ", width: half)
        line.append(" ")
        line.append(spark(m, .roll, label: "roll ", width: width - half - 1))
        return line
    }

    /// The counts behind the status line, on one line.
    static func linkRow(_ m: ViewModel) -> StyledLine {
        let c = m.snapshot.counters
        var line = StyledLine("samples ", .dim)
        line.append("\(c.samples)  ")
        line.append("ticks ", .dim)
        line.append("\(c.ticks)  ")
        line.append("CRC errors ", .dim)
        line.append("\(c.decoder.crcErrors)", c.decoder.crcErrors > 0 ? .warning : .plain)
        line.append("  other ", .dim)
        let other = c.errors - c.decoder.crcErrors
        line.append("\(other)", other > 0 ? .warning : .plain)
        line.append("  duplicates ", .dim)
        line.append("\(c.decoder.duplicates)")
        return line
    }

    /// `label` then a sparkline of the last values of `series`, `width` columns in all.
    static func spark(_ m: ViewModel, _ series: SensorHistory.Series, label: String, width: Int) -> StyledLine {
        let n = max(width - TerminalWidth.columns(label), 0)
        let values = m.history.last(n, of: series)
        let minimumSpan = series == .pitch || series == .roll ? 10.0 : 0.2
        let range = Sparkline.range(values, minimumSpan: minimumSpan)
        var line = StyledLine(label, .dim)
        line.append(Sparkline.text(values, low: range.low, high: range.high))
        return line
    }

    /// Three lines under the board.
    static func compactBelow(_ m: ViewModel, width: Int) -> [StyledLine] {
        guard let r = m.reading else { return [StyledLine("sensor: waiting for samples…", .dim), StyledLine(), sparkRow(m, width: width)] }
        var first = StyledLine()
        for (name, counts, g) in [("ax", r.raw.accel.x, r.accel.x), ("ay", r.raw.accel.y, r.accel.y), ("az", r.raw.accel.z, r.accel.z)] {
            first.append(name + " ", .dim)
            first.append("\(counts) \(Figures.fixed(g, 2)) g   ")
        }
        first.append("|a| ", .dim)
        first.append(Figures.fixed(r.magnitude, 2) + " g")
        var second = StyledLine("pitch ", .dim)
        second.append(Figures.fixed(r.pitch, 1) + "°  ")
        second.append("roll ", .dim)
        second.append(Figures.fixed(r.roll, 1) + "°   ")
        second.append("gyro ", .dim)
        second.append("\(Figures.fixed(r.gyro.x, 1)) \(Figures.fixed(r.gyro.y, 1)) \(Figures.fixed(r.gyro.z, 1)) °/s   ")
        second.append("temp ", .dim)
        second.append((r.temperature.map { Figures.fixed($0, 1) + " °C" } ?? "—") + "   ")
        second.append("rest ", .dim)
        second.append(restText(m))
        return [first, second, sparkRow(m, width: width)]
    }

    /// The full panel's sections, each at most `ViewLayout.fullBelowRows` lines of `width` columns.
    static func fullSections(_ m: ViewModel, width: Int) -> [[StyledLine]] {
        [sensorSection(m, width: width), trendSection(m, width: width), poseSection(m, width: width), linkSection(m)]
    }

    static func sensorSection(_ m: ViewModel, width: Int) -> [StyledLine] {
        var lines = [StyledLine("sensor" + Figures.right("counts", 15) + Figures.right("g", 9), .dim)]
        guard let r = m.reading else { return lines + [StyledLine("waiting for samples…", .dim)] }
        for (name, counts, g) in [("ax", r.raw.accel.x, r.accel.x), ("ay", r.raw.accel.y, r.accel.y), ("az", r.raw.accel.z, r.accel.z)] {
            var line = StyledLine(" " + name, .dim)
            line.append(Figures.right(String(counts), 18) + Figures.right(Figures.fixed(g, 3), 9))
            lines.append(line)
        }
        var angles = StyledLine(" pitch", .dim)
        angles.append(Figures.right(Figures.fixed(r.pitch, 1) + "°", 8))
        angles.append("   roll", .dim)
        angles.append(Figures.right(Figures.fixed(r.roll, 1) + "°", 8))
        lines.append(angles)
        var gyro = StyledLine(" gyro °/s", .dim)
        gyro.append(Figures.right(Figures.fixed(r.gyro.x, 1), 7) + Figures.right(Figures.fixed(r.gyro.y, 1), 8)
                    + Figures.right(Figures.fixed(r.gyro.z, 1), 8))
        lines.append(gyro)
        var temp = StyledLine(" temp", .dim)
        temp.append(Figures.right(r.temperature.map { Figures.fixed($0, 1) + " °C" } ?? "—", 8))
        temp.append("   |a|", .dim)
        temp.append(Figures.right(Figures.fixed(r.magnitude, 3) + " g", 10))
        lines.append(temp)
        return lines
    }

    static func trendSection(_ m: ViewModel, width: Int) -> [StyledLine] {
        let label = 6, n = max(width - label, 0)
        let seconds = Double(m.history.span(n)) / 1_000_000
        var lines = [StyledLine("trend, last \(Figures.fixed(seconds, 1)) s", .dim)]
        for (series, name) in [(SensorHistory.Series.pitch, "pitch"), (.roll, "roll"), (.ax, "ax"), (.ay, "ay"), (.az, "az")] {
            lines.append(spark(m, series, label: Figures.left(name, label), width: width))
        }
        return lines
    }

    static func poseSection(_ m: ViewModel, width: Int) -> [StyledLine] {
        var rest = StyledLine("rest pose ", .dim)
        rest.append(restText(m))
        if m.keys && m.snapshot.mode == .smooth { rest.append("  (c: now)", .dim) }
        var lines = [rest]
        guard let t = m.snapshot.lastTick else { return lines }
        var ribbon = StyledLine("ribbon ", .dim)
        let threshold = m.snapshot.fireThreshold
        ribbon.append(MeterBar.text(t.stretchValue, full: threshold, width: 10), m.firedNow ? .fire : .plain)
        ribbon.append(" \(Figures.fixed(t.stretchValue, 1))/\(Figures.fixed(threshold, 0)) pt")
        lines.append(ribbon)
        var offsets = StyledLine("offsets ", .dim)
        offsets.append("x \(Figures.fixed(t.xValue, 3))  y \(Figures.fixed(t.yValue, 3))")
        lines.append(offsets)
        var view = StyledLine("viewport ", .dim)
        view.append("\(t.viewportX),\(t.viewportY)")
        lines.append(view)
        return lines
    }

    static func linkSection(_ m: ViewModel) -> [StyledLine] {
        let s = m.snapshot, c = s.counters
        var lines = [StyledLine("link ", .dim).appending(s.format?.rawValue ?? "detecting…")]
        if let h = s.hello {
            lines.append(StyledLine(" firmware \(h.firmwareMajor).\(h.firmwareMinor).\(h.firmwarePatch), \(h.sampleRateHz) Hz"))
        }
        lines.append(StyledLine(" samples \(c.samples)  ticks \(c.ticks)"))
        var lost = StyledLine(" lost ")
        lost.append("\(c.lostFrames)", m.losingNow ? .bad : (c.lostFrames > 0 ? .warning : .plain))
        lost.append("  duplicates \(c.decoder.duplicates)")
        lines.append(lost)
        var errors = StyledLine(" CRC errors ")
        errors.append("\(c.decoder.crcErrors)", m.erringNow ? .bad : (c.decoder.crcErrors > 0 ? .warning : .plain))
        errors.append("  other ")
        let other = c.errors - c.decoder.crcErrors
        errors.append("\(other)", m.erringNow ? .bad : (other > 0 ? .warning : .plain))
        lines.append(errors)
        return lines
    }

    /// Sections one under another, whole sections only, at most `rows` lines.
    static func stack(_ sections: [[StyledLine]], rows: Int) -> [StyledLine] {
        var lines: [StyledLine] = []
        for section in sections where lines.count + section.count <= rows { lines += section }
        return lines
    }

    /// Sections side by side in columns of `ViewLayout.fullWidth`, `rows` lines.
    static func flow(_ sections: [[StyledLine]], columns: Int, rows: Int) -> [StyledLine] {
        let width = ViewLayout.fullWidth, gap = 2
        let count = max((columns + gap) / (width + gap), 1)
        var lines = Array(repeating: StyledLine(), count: rows)
        for (k, section) in sections.prefix(count).enumerated() {
            for row in 0..<rows {
                if k > 0 { lines[row] = lines[row].fitted(to: k * (width + gap)) }
                if row < section.count { lines[row].append(section[row].clipped(to: width)) }
            }
        }
        return lines
    }
}

extension StyledLine {
    func appending(_ text: String, _ style: TextStyle = .plain) -> StyledLine {
        var line = self
        line.append(text, style)
        return line
    }
}
