#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A line chart rendered as a standalone SVG document: axes with ticks and units, a grid, one
/// coloured line with markers per series, and a legend beside the plot that lists every series
/// (the document grows to fit it). The plot leaves a margin inside its frame, so no point sits
/// on it.
///
/// Pure string building (no Foundation, no fonts measured): labels are short, the plot leaves a
/// fixed margin for them, and the legend's width follows its longest name at an estimated 7
/// pixels per character of 12-pixel sans-serif.
public struct LineChart: Sendable {
    /// One line: its points in any order (drawn sorted by x), non-finite ones left out.
    public struct Series: Sendable {
        public var name: String
        public var points: [(x: Double, y: Double)]
        /// A reference line (Belady's optimum): drawn dashed, in near-black.
        public var isReference: Bool

        public init(name: String, points: [(x: Double, y: Double)], isReference: Bool = false) {
            self.name = name
            self.points = points
            self.isReference = isReference
        }
    }

    /// How an axis maps values to pixels.
    public enum Scale: Sendable {
        case linear
        /// Base-10 logarithmic; values ≤ 0 are left out.
        case logarithmic
    }

    /// How an axis writes its tick labels.
    public enum Units: Sendable {
        /// 0.25 → "25%".
        case percent
        /// 1500000 → "1.5 MB" (decimal units).
        case bytes
        /// 1500 → "1,500".
        case count
        /// 12.5 → "12.5 ms".
        case milliseconds
    }

    public struct Axis: Sendable {
        public var title: String
        public var scale: Scale
        public var units: Units
        /// Fixed bounds; nil takes the data's (for a linear axis, from 0), with a margin.
        public var range: ClosedRange<Double>?
        /// Where the ticks go, each labelled (the capacities a sweep ran at); nil places them
        /// on round values.
        public var ticks: [Double]?

        public init(
            title: String, scale: Scale = .linear, units: Units, range: ClosedRange<Double>? = nil,
            ticks: [Double]? = nil
        ) {
            self.title = title
            self.scale = scale
            self.units = units
            self.range = range
            self.ticks = ticks
        }
    }

    public var title: String
    public var subtitle: String
    public var x: Axis
    public var y: Axis
    public var series: [Series]
    /// Lines as steps (a CDF: the value holds until the next point) instead of straight segments.
    public var steps = false

    public init(title: String, subtitle: String = "", x: Axis, y: Axis, series: [Series], steps: Bool = false) {
        self.title = title
        self.subtitle = subtitle
        self.x = x
        self.y = y
        self.series = series
        self.steps = steps
    }

    /// Seven colours that stay apart on white and for the common colour-vision deficiencies
    /// (Okabe and Ito's, with a dark ochre for their yellow, which white washes out). Past seven
    /// lines the colours come round again with a dash pattern each round.
    static let palette = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#8c6d1f"]
    static let dashes = ["", "9 3", "2 3", "9 3 2 3"]

    /// The SVG document.
    public func svg(width: Int = 760, height: Int = 460) -> String {
        let legendWidth = 40 + 7 * (series.map(\.name.count).max() ?? 0)
        let left = 72.0
        let right = Double(width - legendWidth - 16)
        let top = subtitle.isEmpty ? 44.0 : 60.0
        // Tall enough for every legend row beside the plot.
        let height = max(height, Int(top) + 8 + 18 * series.count + 70)
        let rotated = (x.ticks?.count ?? 0) > 6
        let bottom = Double(height - (rotated ? 76 : 56))
        let xs = series.flatMap { $0.points.map(\.x) }.filter { usable($0, on: x.scale) }
        let ys = series.flatMap { $0.points.map(\.y) }.filter { usable($0, on: y.scale) }
        let xDomain = domain(of: xs, axis: x)
        let yDomain = domain(of: ys, axis: y)
        let xMap = Mapping(domain: xDomain, pixels: left...right, scale: x.scale, flipped: false)
        let yMap = Mapping(domain: yDomain, pixels: top...bottom, scale: y.scale, flipped: true)

        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="22" font-size="15" font-weight="bold">\(escaped(title))</text>

            """
        if !subtitle.isEmpty {
            out += "<text x=\"\(left)\" y=\"40\" fill=\"#555\">\(escaped(subtitle))</text>\n"
        }
        // Grid and tick labels.
        for tick in x.ticks ?? ticks(xDomain, scale: x.scale) {
            let px = format(xMap(tick))
            out +=
                "<line x1=\"\(px)\" y1=\"\(format(top))\" x2=\"\(px)\" y2=\"\(format(bottom))\" stroke=\"#e4e4e4\"/>\n"
            if rotated {
                // Many labels: slanted, so that each is read whole.
                let y = format(bottom + 14)
                out +=
                    "<text x=\"\(px)\" y=\"\(y)\" text-anchor=\"end\" transform=\"rotate(-35 \(px) \(y))\">\(escaped(label(tick, x.units)))</text>\n"
            } else {
                out +=
                    "<text x=\"\(px)\" y=\"\(format(bottom + 16))\" text-anchor=\"middle\">\(escaped(label(tick, x.units)))</text>\n"
            }
        }
        for tick in ticks(yDomain, scale: y.scale) {
            let py = format(yMap(tick))
            out +=
                "<line x1=\"\(format(left))\" y1=\"\(py)\" x2=\"\(format(right))\" y2=\"\(py)\" stroke=\"#e4e4e4\"/>\n"
            out +=
                "<text x=\"\(format(left - 6))\" y=\"\(py)\" dy=\"4\" text-anchor=\"end\">\(escaped(label(tick, y.units)))</text>\n"
        }
        // Axes and their titles.
        out += "<rect x=\"\(format(left))\" y=\"\(format(top))\" width=\"\(format(right - left))\" "
        out += "height=\"\(format(bottom - top))\" fill=\"none\" stroke=\"#333\"/>\n"
        out += "<text x=\"\(format((left + right) / 2))\" y=\"\(height - 14)\" text-anchor=\"middle\">"
        out += "\(escaped(x.title))</text>\n"
        let middle = format((top + bottom) / 2)
        out += "<text x=\"16\" y=\"\(middle)\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(middle))\">"
        out += "\(escaped(y.title))</text>\n"

        // Lines, clipped to the plot.
        out += "<clipPath id=\"plot\"><rect x=\"\(format(left))\" y=\"\(format(top))\" "
        out += "width=\"\(format(right - left))\" height=\"\(format(bottom - top))\"/></clipPath>\n"
        out += "<g clip-path=\"url(#plot)\" fill=\"none\" stroke-width=\"2\">\n"
        var colour = 0
        var styles: [(stroke: String, dash: String)] = []
        for line in series {
            let stroke = line.isReference ? "#222" : Self.palette[colour % Self.palette.count]
            let pattern = line.isReference ? "6 4" : Self.dashes[(colour / Self.palette.count) % Self.dashes.count]
            if !line.isReference { colour += 1 }
            let dash = pattern.isEmpty ? "" : " stroke-dasharray=\"\(pattern)\""
            styles.append((stroke, dash))
            let points = line.points
                .filter { usable($0.x, on: x.scale) && usable($0.y, on: y.scale) }
                .sorted { $0.x < $1.x }
                .map { (xMap($0.x), yMap($0.y)) }
            guard !points.isEmpty else { continue }
            var path = "M\(format(points[0].0)),\(format(points[0].1))"
            for point in points.dropFirst() {
                path += steps ? " H\(format(point.0)) V\(format(point.1))" : " L\(format(point.0)),\(format(point.1))"
            }
            out +=
                "<path d=\"\(path)\" stroke=\"\(stroke)\"\(styles.last!.dash)><title>\(escaped(line.name))</title></path>\n"
            if !steps && points.count <= 40 {
                for point in points {
                    out +=
                        "<circle cx=\"\(format(point.0))\" cy=\"\(format(point.1))\" r=\"2.5\" fill=\"\(stroke)\"/>\n"
                }
            }
        }
        out += "</g>\n"

        // Legend.
        let legendX = right + 16
        for (index, line) in series.enumerated() {
            let rowY = top + 8 + Double(index) * 18
            out += "<line x1=\"\(format(legendX))\" y1=\"\(format(rowY))\" x2=\"\(format(legendX + 22))\" "
            out +=
                "y2=\"\(format(rowY))\" stroke=\"\(styles[index].stroke)\" stroke-width=\"2\"\(styles[index].dash)/>\n"
            out += "<text x=\"\(format(legendX + 28))\" y=\"\(format(rowY))\" dy=\"4\">\(escaped(line.name))</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    private func usable(_ value: Double, on scale: Scale) -> Bool {
        value.isFinite && (scale == .linear || value > 0)
    }

    private func domain(of values: [Double], axis: Axis) -> ClosedRange<Double> {
        guard var low = axis.range?.lowerBound ?? values.min(), var high = axis.range?.upperBound ?? values.max()
        else {
            return axis.scale == .linear ? 0...1 : 1...10
        }
        // A margin on both sides, so that no point sits on the frame.
        if axis.scale == .linear {
            if axis.range == nil { low = min(low, 0) }
            if high <= low { high = low + 1 }
            let margin = (high - low) * 0.04
            return (low - margin)...(high + margin)
        }
        if high <= low {
            low /= 2
            high *= 2
        }
        let margin = pow(high / low, 0.04)
        return (low / margin)...(high * margin)
    }

    /// Where ticks go: 1-2-5 steps on a linear axis (about six), powers of ten on a log axis
    /// (with 2 and 5 between them when the axis spans under three decades).
    func ticks(_ domain: ClosedRange<Double>, scale: Scale) -> [Double] {
        switch scale {
        case .linear:
            let span = domain.upperBound - domain.lowerBound
            guard span > 0 else { return [domain.lowerBound] }
            // The smallest 1, 2 or 5 × 10ⁿ that gives at most about six intervals.
            let rough = span / 6
            let decade = pow(10, (log10(rough)).rounded(.down))
            let step = [1.0, 2, 5, 10].map { $0 * decade }.first { $0 >= rough * (1 - 1e-9) } ?? decade * 10
            // Each tick from its own index, so steps like 0.1 do not accumulate rounding.
            let first = (domain.lowerBound / step).rounded(.up)
            var result: [Double] = []
            var index = 0.0
            while (first + index) * step <= domain.upperBound + step * 1e-9 {
                let tick = (first + index) * step
                result.append(abs(tick) < step * 1e-9 ? 0 : tick)
                index += 1
            }
            return result
        case .logarithmic:
            var power = 1.0
            while power > domain.lowerBound { power /= 10 }
            while power * 10 <= domain.lowerBound { power *= 10 }
            let decades = log10(domain.upperBound / domain.lowerBound)
            let multiples: [Double] = decades < 3 ? [1, 2, 5] : [1]
            var result: [Double] = []
            while power <= domain.upperBound {
                for multiple in multiples {
                    let tick = power * multiple
                    if tick >= domain.lowerBound * (1 - 1e-9) && tick <= domain.upperBound * (1 + 1e-9) {
                        result.append(tick)
                    }
                }
                power *= 10
            }
            return result
        }
    }

    func label(_ value: Double, _ units: Units) -> String {
        switch units {
        case .percent:
            // Rounded first: 0.1 × 3 × 100 is 30.000000000000004.
            let percent = (value * 100 * 1e6).rounded() / 1e6
            return Report.decimal(percent, places: percent == percent.rounded() ? 0 : 1) + "%"
        case .bytes:
            for (scale, name) in [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "KB")] where value >= scale {
                return Self.short(value / scale) + " " + name
            }
            return Self.short(value) + " B"
        case .count:
            return value == value.rounded() && abs(value) < 1e15 ? Report.grouped(Int(value)) : Self.short(value)
        case .milliseconds:
            return Self.short(value) + " ms"
        }
    }

    /// At most three significant digits, trailing zeros dropped: 1.5, 20, 0.25.
    static func short(_ value: Double) -> String {
        let magnitude = abs(value)
        let places = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2
        var text = Report.decimal(value, places: places)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}

/// Maps a value on an axis to a pixel coordinate.
private struct Mapping {
    let domain: ClosedRange<Double>
    let pixels: ClosedRange<Double>
    let scale: LineChart.Scale
    let flipped: Bool

    func callAsFunction(_ value: Double) -> Double {
        let fraction: Double
        switch scale {
        case .linear:
            fraction = (value - domain.lowerBound) / (domain.upperBound - domain.lowerBound)
        case .logarithmic:
            fraction = log10(value / domain.lowerBound) / log10(domain.upperBound / domain.lowerBound)
        }
        let span = pixels.upperBound - pixels.lowerBound
        return flipped ? pixels.upperBound - fraction * span : pixels.lowerBound + fraction * span
    }
}

/// One decimal place: enough for a pixel, short in the file.
private func format(_ value: Double) -> String { Report.decimal(value, places: 1) }

/// Text made safe for SVG's XML.
private func escaped(_ text: String) -> String { Markup.escaped(text) }
