import ArgumentParser
import CacheLab

struct TraceStats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract:
            "Print a trace's requests, unique objects, working set, reuse distances and one-hit wonders.",
        discussion: """
            Reuse distance: for each request of an object requested before, the number of distinct other \
            objects requested since its previous request (0 = twice in a row); LRU with room for c objects \
            hits exactly the re-references whose distance is below c. A one-hit wonder is an object \
            requested exactly once. The columns of --format csv are listed in traces/README.md.

            Unlike the replays, stats holds the trace in memory (about 24 bytes a request plus its \
            keys) to measure reuse distances; for a trace too big for that, `cachelab mrc --policy \
            lru` gives LRU's exact curve in a streamed pass.
            """
    )

    @Argument(help: ArgumentHelp("Trace file (default: the built-in scenario).", valueName: "path"))
    var path: String?

    @OptionGroup var reading: TraceReadingOptions

    @Option(help: "Output: a table, or CSV (one header and one row of the scalar figures).")
    var format: OutputFormat = .table

    // The CSV columns, in order; stable, new ones are only appended (documented in traces/README.md,
    // "Trace statistics"):
    //   trace, requests, unique_objects, working_set_bytes, bytes_requested, events,
    //   cold_requests, re_references,
    //   reuse_p50_objects, reuse_p90_objects, reuse_p99_objects, reuse_mean_objects, reuse_mean_bytes
    //     (empty when the trace has no re-reference),
    //   one_hit_wonders, one_hit_wonder_ratio (of unique objects), one_hit_wonder_request_share.
    static let csvColumns = [
        "trace", "requests", "unique_objects", "working_set_bytes", "bytes_requested", "events",
        "cold_requests", "re_references", "reuse_p50_objects", "reuse_p90_objects", "reuse_p99_objects",
        "reuse_mean_objects", "reuse_mean_bytes", "one_hit_wonders", "one_hit_wonder_ratio",
        "one_hit_wonder_request_share",
    ]

    func run() throws {
        let trace = try reading.load(path: path)
        let statistics = TraceStatistics(trace)
        let start = Output.monotonicSeconds()
        let profile = ReuseProfile(trace)
        let seconds = Output.monotonicSeconds() - start
        Output.detail(
            "profiled reuse distances of \(trace.count) requests in \(Report.decimal(seconds * 1000, places: 1)) ms")
        switch format {
        case .table: print(Self.table(trace: trace, statistics: statistics, profile: profile), terminator: "")
        case .csv: print(Self.csv(trace: trace, statistics: statistics, profile: profile), terminator: "")
        }
    }

    /// Label and value lines, then the log2 histogram of reuse distances as a table.
    static func table(trace: Trace, statistics: TraceStatistics, profile: ReuseProfile) -> String {
        func distance(_ percentile: Double) -> String {
            profile.objectDistance(atPercentile: percentile).map { Report.counted($0, "object") } ?? "none"
        }
        let rows = [
            ["trace", trace.name],
            ["requests", Report.grouped(statistics.requests)],
            ["unique objects", Report.grouped(statistics.uniqueObjects)],
            ["working set", Report.bytes(statistics.workingSetBytes)],
            ["bytes requested", Report.bytes(statistics.bytesRequested)],
            ["events", Report.grouped(statistics.events)],
            ["cold requests", Report.grouped(profile.coldRequests)],
            ["re-references", Report.grouped(profile.reReferences)],
            ["reuse p50", distance(50)],
            ["reuse p90", distance(90)],
            ["reuse p99", distance(99)],
            ["reuse mean", profile.meanObjectDistance.map { Report.decimal($0, places: 2) + " objects" } ?? "none"],
            ["reuse mean bytes", profile.meanByteDistance.map { Report.bytes(Int($0.rounded())) } ?? "none"],
            [
                "one-hit objects",
                "\(Report.percent(profile.oneHitWonderRatio)) (\(Report.grouped(profile.oneHitWonders)) of \(Report.counted(profile.uniqueObjects, "object")))",
            ],
            [
                "one-hit requests",
                "\(Report.percent(profile.oneHitWonderRequestShare)) (\(Report.grouped(profile.oneHitWonders)) of \(Report.counted(profile.requests, "request")))",
            ],
        ]
        var text = rows.map { $0[0].padding(18) + $0[1] }.joined(separator: "\n") + "\n"
        let buckets = profile.histogram
        guard !buckets.isEmpty else { return text }
        var table = [["reuse distance", "re-references", "share", "cumulative"]]
        var cumulative = 0
        for bucket in buckets {
            cumulative += bucket.count
            let range =
                bucket.lowerBound == bucket.upperBound
                ? String(bucket.lowerBound) : "\(bucket.lowerBound)-\(bucket.upperBound)"
            table.append([
                range, String(bucket.count),
                Report.percent(Double(bucket.count) / Double(profile.reReferences)),
                Report.percent(Double(cumulative) / Double(profile.reReferences)),
            ])
        }
        text += "\n" + Report.render(table)
        return text
    }

    /// One header line and one line of the scalar figures, in `csvColumns` order.
    static func csv(trace: Trace, statistics: TraceStatistics, profile: ReuseProfile) -> String {
        // Empty when the trace has no re-reference.
        let p50 = profile.objectDistance(atPercentile: 50).map { String($0) } ?? ""
        let p90 = profile.objectDistance(atPercentile: 90).map { String($0) } ?? ""
        let p99 = profile.objectDistance(atPercentile: 99).map { String($0) } ?? ""
        let meanObjects = profile.meanObjectDistance.map { Report.decimal($0, places: 3) } ?? ""
        let meanBytes = profile.meanByteDistance.map { Report.decimal($0, places: 1) } ?? ""
        let values: [String] = [
            Report.csvField(trace.name), String(statistics.requests), String(statistics.uniqueObjects),
            String(statistics.workingSetBytes), String(statistics.bytesRequested), String(statistics.events),
            String(profile.coldRequests), String(profile.reReferences), p50, p90, p99, meanObjects, meanBytes,
            String(profile.oneHitWonders), Report.decimal(profile.oneHitWonderRatio, places: 6),
            Report.decimal(profile.oneHitWonderRequestShare, places: 6),
        ]
        return csvColumns.joined(separator: ",") + "\n" + values.joined(separator: ",") + "\n"
    }
}
