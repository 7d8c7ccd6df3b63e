import CacheLab
import ClientModel
import LiveReplay

/// What commands print and write at their end beyond a table or CSV (`OutputFormat.write`): a
/// comparison's files and the status lines of live replays. A merge of shards emits through the
/// same functions as the one-machine command whose shards it merges, so the two give the same
/// bytes; no command calls another.
enum Emitter {
    /// How the live outcomes agreed with the simulator's, in words.
    static func describe(_ agreement: OutcomeAgreement) -> String {
        var text =
            "outcome agreeing with the simulator's for \(Report.grouped(agreement.agreeing)) of \(Report.grouped(agreement.requests))"
        if agreement.undecided > 0 {
            text +=
                " (\(Report.grouped(agreement.undecided)) within the timing margin, \(Report.grouped(agreement.delayedBoth)) delayed hits in both)"
        } else {
            text += " (\(Report.grouped(agreement.delayedBoth)) delayed hits in both)"
        }
        for disagreement in agreement.firstDisagreements.prefix(3) { text += "\n  \(disagreement)" }
        return text
    }

    /// The status lines of one live run.
    static func describe(_ run: LiveReplay.VerifiedRun, trace: Trace) -> String {
        let measured = run.live
        var lines = [
            "\(measured.run.label): \(Report.grouped(trace.count)) requests in \(Report.decimal(measured.seconds, places: 2)) s (\(Report.grouped(Int(measured.requestsPerSecond))) requests/s); \(Self.describe(run.agreement)); downloaded \(Report.grouped(measured.run.bytesDownloaded)) bytes, the server sent \(Report.grouped(measured.serverBytes))"
        ]
        let bySource = measured.run.live?.latencyBySource ?? [:]
        let sources: [RequestOutcome] = [.memory, .disk, .delayed, .network]
        let latencies = sources.compactMap { source in
            bySource[source].map {
                "\(source) \(Report.decimal($0.p50, places: 2)) / \(Report.decimal($0.p99, places: 2))"
            }
        }
        if !latencies.isEmpty { lines.append("  latency p50 / p99, ms: " + latencies.joined(separator: ", ")) }
        if !measured.faultsInjected.isEmpty {
            let kinds = measured.faultsInjected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            lines.append(
                "  the server injected \(measured.faultsInjected.values.reduce(0, +)) faults: \(kinds.joined(separator: ", "))"
            )
        }
        if measured.failures > 0 {
            lines.append(
                "  \(measured.failures) requests failed (\(measured.pipeline.failedDownloads) downloads, each failing the requests waiting for it); first: \(measured.firstErrors.first ?? "")"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Prints the rankings and writes compare.csv, the charts and README.md to `outDir`: the
    /// same files from one machine's run and from a merge of its shards.
    static func comparison(
        _ results: [RunResult], liveRuns: [RunResult] = [], command: String, outDir: String, allSeries: Bool = false
    ) throws {
        let rankings = Comparison.rankings(results)
        try Output.result(ComparisonReport.table(rankings) + "\n" + Comparison.rankingNote + "\n", to: nil)
        try Directory.create(outDir)
        let csv = "compare.csv"
        var files = [ComparisonReport.File(name: csv, contents: Report.csv(results + liveRuns))]
        files += rankings.flatMap { ComparisonReport.charts($0, allSeries: allSeries) }
        let liveCharts = rankings.compactMap { ranking in
            ComparisonReport.liveChart(ranking.trace, runs: liveRuns.filter { $0.trace == ranking.trace })
        }
        files += liveCharts
        files.append(
            ComparisonReport.File(
                name: "README.md",
                contents: ComparisonReport.markdown(
                    rankings, command: command, csv: csv, extraCharts: liveCharts.map(\.name))))
        for file in files { try Output.result(file.contents, to: outDir + "/" + file.name) }
        ComparisonFolder.removeStaleCharts(in: outDir, keeping: Set(files.map(\.name)))
        Output.status("wrote \(files.count) files to \(outDir)/ (README.md embeds the charts)")
    }
}
