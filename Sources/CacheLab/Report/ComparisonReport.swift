import CacheEngine

/// Renders a comparison (`Comparison.rankings`): a ranking table per trace for the terminal, SVG
/// charts per trace, and a Markdown report that embeds the charts.
public enum ComparisonReport {
    /// A file the report writes: its name (no directory) and contents.
    public struct File: Sendable, Equatable {
        public var name: String
        public var contents: String

        public init(name: String, contents: String) {
            self.name = name
            self.contents = contents
        }
    }

    /// For each trace: the policies best first, with their mean hit ratio over the capacities,
    /// their mean share of Belady's hits, mean byte hit ratio, and the hit ratio and p95 latency
    /// at the smallest, middle and largest capacity; Belady's own row last.
    public static func table(_ rankings: [Comparison.Ranking]) -> String {
        rankings.map { ranking in
            let picks = pickedCapacities(ranking)
            let sizeMode = ranking.optimum.first?.cache.sizeMode ?? .bytes
            var rows = [
                ["rank", "policy", "hit ratio", "% of Belady", "byte hit ratio"]
                    + picks.map { "hits at \(capacityLabel($0, sizeMode))" } + [
                        "p95 at \(capacityLabel(picks[picks.count / 2], sizeMode))"
                    ]
            ]
            for (place, standing) in ranking.standings.enumerated() {
                let atPicks = picks.map { capacity in
                    standing.runs.first { $0.cache.capacity == capacity }.map { Report.percent($0.hitRatio) } ?? "-"
                }
                let middle = standing.runs.first { $0.cache.capacity == picks[picks.count / 2] }
                rows.append(
                    [
                        "\(place + 1)", standing.label, Report.percent(standing.meanHitRatio),
                        Report.percent(standing.meanOptRatio), Report.percent(standing.meanByteHitRatio),
                    ] + atPicks + [middle.map { Report.decimal(Report.latency(of: $0).p95, places: 1) + " ms" } ?? "-"])
            }
            let optimum = picks.map { capacity in
                ranking.optimum.first { $0.cache.capacity == capacity }.map { Report.percent($0.hitRatio) } ?? "-"
            }
            let optimumMean = { (value: (RunResult) -> Double) in
                ranking.optimum.isEmpty
                    ? "" : Report.percent(ranking.optimum.map(value).reduce(0, +) / Double(ranking.optimum.count))
            }
            rows.append(
                ["", Comparison.optimumLabel, optimumMean(\.hitRatio), "100.00%", optimumMean(\.byteHitRatio)] + optimum
                    + [""])
            let requests = ranking.optimum.first?.requests ?? 0
            return
                "\(ranking.trace): \(Report.grouped(requests)) requests, \(Report.counted(ranking.capacities.count, "capacity", plural: "capacities")) from \(capacityLabel(ranking.capacities.first ?? 0, sizeMode)) to \(capacityLabel(ranking.capacities.last ?? 0, sizeMode))\n"
                + Report.render(rows)
        }.joined(separator: "\n")
    }

    /// The smallest, middle and largest capacity (fewer when there are fewer).
    static func pickedCapacities(_ ranking: Comparison.Ranking) -> [Int] {
        let all = ranking.capacities
        guard all.count > 2 else { return all }
        return [all[0], all[all.count / 2], all[all.count - 1]]
    }

    static func capacityLabel(_ capacity: Int, _ sizeMode: SizeMode) -> String {
        sizeMode == .unit ? Report.counted(capacity, "object") : Report.bytes(capacity)
    }

    /// A trace's name made safe for a file name: "daily-reader.csv" → "daily-reader".
    public static func slug(_ trace: String) -> String {
        var base = Substring(trace)
        for suffix in [".oracleGeneral.bin", ".csv", ".txt", ".bin"] where base.hasSuffix(suffix) {
            base = base.dropLast(suffix.count)
            break
        }
        let cleaned = String(base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        return cleaned.isEmpty ? "trace" : cleaned
    }

    /// How many policies a chart draws by default: with Belady's line, eight, each its own colour.
    public static let chartedPolicies = 7

    /// The policies a chart draws: all of them with `allSeries`, else the best few by rank and
    /// LRU, the familiar baseline, `chartedPolicies` in all.
    public static func charted(_ ranking: Comparison.Ranking, allSeries: Bool = false) -> [Comparison.Standing] {
        guard !allSeries, ranking.standings.count > chartedPolicies else { return ranking.standings }
        var chosen = Array(ranking.standings.prefix(chartedPolicies))
        if let lru = ranking.standings.first(where: { $0.policy == .lru && $0.admission == nil && $0.ttl == nil }),
            !chosen.contains(lru)
        {
            chosen[chosen.count - 1] = lru
        }
        return chosen
    }

    /// Three charts per trace: miss ratio and byte hit ratio against capacity (the policies
    /// `charted` picks, Belady's dashed), and the latency distribution at the middle capacity.
    /// Every capacity swept is a labelled tick, and each axis says which way is better.
    public static func charts(_ ranking: Comparison.Ranking, allSeries: Bool = false) -> [File] {
        let sizeMode = ranking.optimum.first?.cache.sizeMode ?? .bytes
        let capacityAxis = LineChart.Axis(
            title: sizeMode == .unit ? "cache capacity (objects, log scale)" : "cache capacity (bytes, log scale)",
            scale: .logarithmic, units: sizeMode == .unit ? .count : .bytes,
            ticks: ranking.capacities.map(Double.init))
        let standings = charted(ranking, allSeries: allSeries)
        // Legend order: the ranking's, best first, then the optimum.
        func lines(_ value: (RunResult) -> Double) -> [LineChart.Series] {
            standings.map { standing in
                LineChart.Series(
                    name: standing.label, points: standing.runs.map { (Double($0.cache.capacity), value($0)) })
            }
                + [
                    LineChart.Series(
                        name: Comparison.optimumLabel,
                        points: ranking.optimum.map { (Double($0.cache.capacity), value($0)) },
                        isReference: true)
                ]
        }
        let requests = ranking.optimum.first?.requests ?? 0
        let best = standings == Array(ranking.standings.prefix(standings.count))
        let shown =
            standings.count == ranking.standings.count
            ? ""
            : best
                ? "; the best \(standings.count) of \(ranking.standings.count) (all: compare.csv)"
                : "; the best \(standings.count - 1) of \(ranking.standings.count) and LRU (all: compare.csv)"
        let about = "\(ranking.trace), \(Report.grouped(requests)) requests\(shown)"
        let missRatio = LineChart(
            title: "Miss ratio by cache size", subtitle: about, x: capacityAxis,
            y: LineChart.Axis(title: "miss ratio (lower is better)", units: .percent), series: lines(\.missRatio))
        let byteHitRatio = LineChart(
            title: "Byte hit ratio by cache size", subtitle: about, x: capacityAxis,
            y: LineChart.Axis(title: "byte hit ratio (higher is better)", units: .percent),
            series: lines(\.byteHitRatio))
        let middle = ranking.capacities.isEmpty ? 0 : ranking.capacities[ranking.capacities.count / 2]
        let latencySeries = standings.compactMap { standing -> LineChart.Series? in
            guard let run = standing.runs.first(where: { $0.cache.capacity == middle }),
                !Report.latency(of: run).cdf.isEmpty
            else { return nil }
            return LineChart.Series(
                name: standing.label,
                points: zip(Report.latency(of: run).cdf, LatencySummary.cdfPercentiles).map { ($0, $1 / 100) })
        }
        let network = ranking.optimum.first?.configuration.network.rawValue ?? ""
        let latency = LineChart(
            title: "Latency distribution with a \(capacityLabel(middle, sizeMode)) cache",
            subtitle: about + "; modelled, \(network) network",
            x: LineChart.Axis(
                title: "latency per request (ms, log scale; further left is better)", scale: .logarithmic,
                units: .milliseconds),
            y: LineChart.Axis(title: "share of requests at or below", units: .percent, range: 0...1),
            series: latencySeries, steps: true)
        return zip(chartNames(ranking.trace), [missRatio, byteHitRatio, latency]).map {
            File(name: $0, contents: $1.svg())
        }
    }

    /// The wall-clock latency distribution of live runs of one trace (one line per policy), or
    /// nil when there are none.
    public static func liveChart(_ trace: String, runs: [RunResult]) -> File? {
        let measured = runs.filter { !Report.latency(of: $0).cdf.isEmpty }
        guard let first = measured.first else { return nil }
        let chart = LineChart(
            title: "Live latency with a \(Report.bytes(first.cache.capacity)) disk tier",
            subtitle:
                "\(trace), \(Report.grouped(first.requests)) requests through the real pipeline and a loopback server; left is better",
            x: LineChart.Axis(title: "latency per request (ms, log scale)", scale: .logarithmic, units: .milliseconds),
            y: LineChart.Axis(title: "share of requests at or below", units: .percent, range: 0...1),
            series: measured.map { run in
                LineChart.Series(
                    name: run.label,
                    points: zip(Report.latency(of: run).cdf, LatencySummary.cdfPercentiles).map { ($0, $1 / 100) })
            },
            steps: true)
        return File(name: "\(slug(trace))-live-latency.svg", contents: chart.svg())
    }

    /// The files `charts` writes for `trace`, in its order.
    public static func chartNames(_ trace: String) -> [String] {
        let base = slug(trace)
        return ["\(base)-miss-ratio.svg", "\(base)-byte-hit-ratio.svg", "\(base)-latency.svg"]
    }

    /// The Markdown report: how it was made, then per trace its ranking and its charts.
    ///
    /// - Parameters:
    ///   - rankings: the rankings, trace by trace.
    ///   - command: the command line that made it, quoted at the top.
    ///   - csv: the CSV file's name beside the report.
    ///   - extraCharts: more charts beside the report (`liveChart`'s), each shown under the trace
    ///     whose name it starts with.
    public static func markdown(
        _ rankings: [Comparison.Ranking], command: String, csv: String, extraCharts: [String] = []
    ) -> String {
        var out = """
            # Policy comparison

            Made by `\(command)`. Every row of [`\(csv)`](\(csv)) is one simulated replay. \
            \(Comparison.rankingNote) \(Comparison.optimumNote) Latency is the simulator's model. \
            The charts draw at most \(chartedPolicies) policies, the best by rank and LRU, beside \
            Belady's (`--all-series` draws every one).


            """
        for ranking in rankings {
            out += "## \(ranking.trace)\n\n```\n\(table([ranking]))```\n\n"
            let base = slug(ranking.trace)
            let extra = extraCharts.filter { $0.hasPrefix(base + "-") && !chartNames(ranking.trace).contains($0) }
            for name in chartNames(ranking.trace) + extra { out += "![\(name)](\(name))\n" }
            out += "\n"
        }
        return out
    }
}
