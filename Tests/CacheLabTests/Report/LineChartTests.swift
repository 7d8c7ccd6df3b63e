import Foundation
import Testing

@testable import CacheLab

@Suite("SVG line charts")
struct LineChartTests {
    static func chart(_ series: [LineChart.Series], x: LineChart.Axis? = nil) -> LineChart {
        LineChart(
            title: "Miss ratio <by> size", subtitle: "a & b",
            x: x ?? LineChart.Axis(title: "capacity", scale: .logarithmic, units: .bytes),
            y: LineChart.Axis(title: "miss ratio", units: .percent, range: 0...1), series: series)
    }

    @Test func linearTicksStepOneTwoOrFiveAndLandExactly() {
        let chart = Self.chart([])
        #expect(
            chart.ticks(0...1, scale: .linear).map { chart.label($0, .percent) } == [
                "0%", "20%", "40%", "60%", "80%", "100%",
            ])
        #expect(
            chart.ticks(0...0.3, scale: .linear).map { chart.label($0, .percent) } == [
                "0%", "5%", "10%", "15%", "20%", "25%", "30%",
            ])
        #expect(chart.ticks(0...250, scale: .linear) == [0, 50, 100, 150, 200, 250])
    }

    @Test func logTicksArePowersOfTenWithTwoAndFiveOnShortAxes() {
        let chart = Self.chart([])
        #expect(
            chart.ticks(20_000...2_000_000, scale: .logarithmic) == [
                20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000,
            ])
        #expect(chart.ticks(1...100_000, scale: .logarithmic) == [1, 10, 100, 1_000, 10_000, 100_000])
        #expect(chart.label(1_500_000, .bytes) == "1.5 MB")
        #expect(chart.label(50_000, .bytes) == "50 KB")
        #expect(chart.label(12_000, .count) == "12,000")
        #expect(chart.label(0.25, .milliseconds) == "0.25 ms")
    }

    @Test func theDocumentHasEverySeriesItsLegendAndEscapedText() {
        let svg = Self.chart([
            LineChart.Series(name: "lru", points: [(10_000, 0.9), (100_000, 0.5), (1_000_000, 0.1)]),
            LineChart.Series(name: "s3fifo", points: [(10_000, 0.8), (1_000_000, 0.05)]),
            LineChart.Series(name: "belady", points: [(10_000, 0.7), (1_000_000, 0.02)], isReference: true),
        ]).svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("Miss ratio &lt;by&gt; size") && svg.contains("a &amp; b"))
        #expect(svg.occurrences(of: "<path ") == 3)  // one line per series
        #expect(svg.occurrences(of: "stroke-dasharray") == 2)  // Belady's line and its legend swatch
        for name in ["lru", "s3fifo", "belady"] { #expect(svg.contains(">\(name)</text>")) }
        #expect(svg.contains(">100 KB</text>") && svg.contains(">40%</text>"))
        // Every element opened is closed
        #expect(svg.occurrences(of: "<svg") == svg.occurrences(of: "</svg>"))
        #expect(svg.occurrences(of: "<g ") == svg.occurrences(of: "</g>"))
    }

    @Test func everySeriesHasALegendRowAndNoPointSitsOnTheFrame() throws {
        // Given twenty lines, more than the palette's seven colours
        let many = (0..<20).map { index in
            LineChart.Series(name: "p\(index)", points: [(10_000, 0.05 * Double(index)), (1_000_000, 0)])
        }
        let svg = Self.chart(many).svg()

        // Then each has its legend row, the document grew to hold them, and past seven lines
        // the colours come round again dashed
        for index in 0..<20 { #expect(svg.contains(">p\(index)</text>")) }
        let height = try #require(svg.firstMatch(of: /height="(\d+)"/).map { Int($0.1)! })
        #expect(height >= 60 + 8 + 20 * 18)
        #expect(svg.contains("stroke-dasharray=\"9 3\""))
        // and the points sit inside the frame (x from 72, the plot's left edge)
        let xs = svg.matches(of: /<circle cx="([0-9.]+)"/).map { Double($0.1)! }
        #expect(!xs.isEmpty && xs.allSatisfy { $0 > 72.5 })
    }

    @Test func pointsALogAxisCannotShowAreLeftOut() {
        let svg = Self.chart([
            LineChart.Series(name: "lru", points: [(0, 0.9), (.nan, 0.5), (1_000, 0.4), (2_000, 0.3)])
        ])
        .svg()
        let path = String(svg.split(separator: "\n").first { $0.hasPrefix("<path") }!)
        #expect(path.occurrences(of: " L") == 1)  // two points kept: a move and one line
    }
}

extension String {
    fileprivate func occurrences(of target: String) -> Int {
        components(separatedBy: target).count - 1
    }
}
