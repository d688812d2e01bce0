import Foundation

// A tiny SVG line chart: panels stacked vertically, sharing the time axis.

struct Series {
    var label: String
    var color: String
    var points: [(Double, Double)]
    var dashed = false
}

struct Panel {
    var title: String
    var yLabel: String
    var yRange: ClosedRange<Double>
    var series: [Series]
    var markers: [(x: Double, label: String)] = []
}

struct SVGChart {
    var title: String
    var xRange: ClosedRange<Double>
    var panels: [Panel]

    let width = 760.0
    let panelHeight = 190.0
    let left = 60.0, right = 170.0, top = 52.0, gap = 46.0

    func render() -> String {
        let height = top + Double(panels.count) * (panelHeight + gap) + 10
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" \
        viewBox="0 0 \(f(width)) \(f(height))" font-family="sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(f(left))" y="20" font-size="14" font-weight="bold">\(escape(title))</text>

        """
        for (i, panel) in panels.enumerated() {
            out += render(panel, y0: top + Double(i) * (panelHeight + gap))
        }
        return out + "</svg>\n"
    }

    private func render(_ p: Panel, y0: Double) -> String {
        let plotWidth = width - left - right
        func sx(_ x: Double) -> Double { left + (x - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound) * plotWidth }
        func sy(_ y: Double) -> Double {
            let clamped = min(max(y, p.yRange.lowerBound), p.yRange.upperBound)
            return y0 + panelHeight - (clamped - p.yRange.lowerBound) / (p.yRange.upperBound - p.yRange.lowerBound) * panelHeight
        }
        var out = "<g>\n<text x=\"\(f(left))\" y=\"\(f(y0 - 6))\" font-weight=\"bold\">\(escape(p.title))</text>\n"
        out += "<rect x=\"\(f(left))\" y=\"\(f(y0))\" width=\"\(f(plotWidth))\" height=\"\(f(panelHeight))\" fill=\"none\" stroke=\"#999\"/>\n"
        for k in 0...4 {
            let v = p.yRange.lowerBound + Double(k) / 4 * (p.yRange.upperBound - p.yRange.lowerBound)
            out += "<line x1=\"\(f(left))\" x2=\"\(f(left + plotWidth))\" y1=\"\(f(sy(v)))\" y2=\"\(f(sy(v)))\" stroke=\"#eee\"/>\n"
            out += "<text x=\"\(f(left - 6))\" y=\"\(f(sy(v) + 4))\" text-anchor=\"end\">\(g(v))</text>\n"
        }
        let span = xRange.upperBound - xRange.lowerBound
        let step = span > 10 ? 2.0 : span > 4 ? 1.0 : 0.5
        var x = (xRange.lowerBound / step).rounded(.up) * step
        while x <= xRange.upperBound + 1e-9 {
            out += "<text x=\"\(f(sx(x)))\" y=\"\(f(y0 + panelHeight + 14))\" text-anchor=\"middle\">\(g(x))</text>\n"
            x += step
        }
        out += "<text x=\"\(f(left + plotWidth))\" y=\"\(f(y0 + panelHeight + 28))\" text-anchor=\"end\">time, s</text>\n"
        out += "<text transform=\"translate(14 \(f(y0 + panelHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(escape(p.yLabel))</text>\n"
        for m in p.markers {
            out += "<line x1=\"\(f(sx(m.x)))\" x2=\"\(f(sx(m.x)))\" y1=\"\(f(y0))\" y2=\"\(f(y0 + panelHeight))\" stroke=\"#c00\" stroke-dasharray=\"2 3\"/>\n"
            out += "<text x=\"\(f(sx(m.x) + 3))\" y=\"\(f(y0 + 12))\" fill=\"#c00\">\(escape(m.label))</text>\n"
        }
        for (i, s) in p.series.enumerated() {
            let path = s.points.map { "\(f(sx($0.0))),\(f(sy($0.1)))" }.joined(separator: " ")
            let dash = s.dashed ? " stroke-dasharray=\"5 3\"" : ""
            out += "<polyline fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"1.5\"\(dash) points=\"\(path)\"/>\n"
            let ly = y0 + 10 + Double(i) * 16
            out += "<line x1=\"\(f(left + plotWidth + 10))\" x2=\"\(f(left + plotWidth + 30))\" y1=\"\(f(ly))\" y2=\"\(f(ly))\" stroke=\"\(s.color)\" stroke-width=\"2\"\(dash)/>\n"
            out += "<text x=\"\(f(left + plotWidth + 34))\" y=\"\(f(ly + 4))\">\(escape(s.label))</text>\n"
        }
        return out + "</g>\n"
    }

    private func f(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    private func g(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    private func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
