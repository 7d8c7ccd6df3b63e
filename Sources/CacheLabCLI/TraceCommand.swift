import ArgumentParser
import CacheLab

struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Make and inspect traces.",
        subcommands: [GenerateTrace.self, ConvertTrace.self, TraceStats.self, ImportTrace.self, DiffTrace.self]
    )
}

struct GenerateTrace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a generated trace in cachelab's or libCacheSim's formats.",
        discussion: """
            Scenarios (each a mix of people, a device, a catalog and a number of days; any option below adjusts it):
            \(ScrollScenario.presets.map { "  \($0.name.padding(17))\($0.summary)" }.joined(separator: "\n"))
              zipf             independent requests with Zipf popularity (--requests, --objects, --alpha)
            The same scenario, options and seed always give a byte-identical file.

            A zipf trace streams to the file a chunk at a time, so any number of requests takes constant \
            memory (an oracleGeneral file takes a second pass for the next uses, 16 bytes a request in \
            temporary files). A name ending in .zst is compressed with zstd.

            Example: cachelab trace generate --scenario zipf --requests 100000000 --objects 5000000 \
            --sizes images --out zipf.oracleGeneral.zst
            """
    )

    @OptionGroup var generator: ScenarioOptions

    @Option(help: ArgumentHelp("File to write; a final .zst compresses it with zstd.", valueName: "path"))
    var out: String

    @Option(
        help:
            "Format to write. Default: cachelab's own (keeps URLs and events), or libCacheSim's txt or oracle-general when --out ends in .txt or .oracleGeneral.bin (or .oracleGeneral.zst); libCacheSim's csv only when asked."
    )
    var format: TraceFormat?

    func run() async throws {
        try await TraceWriting.write(
            generator.makeSource(), format: TraceWriting.format(for: out, given: format), to: out, what: "generate")
    }
}

struct ConvertTrace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrite a trace in another format, or compress or decompress it with zstd.",
        discussion: """
            Reads any format cachelab reads (cachelab's CSV, libCacheSim's CSV, txt and oracleGeneral, each \
            plain or .zst) and writes it a chunk at a time, in constant memory. The output's format comes \
            from its name as with `trace generate`, or --format; a final .zst compresses it. Writing \
            oracleGeneral from a format without next uses takes one more pass over the input.

            Examples:
              cachelab trace convert cluster52.oracleGeneral.bin cluster52.oracleGeneral.zst
              cachelab trace convert weekly.csv weekly.oracleGeneral.bin
            """
    )

    @Argument(help: ArgumentHelp("Trace to read.", valueName: "in"))
    var input: String

    @Argument(help: ArgumentHelp("File to write; a final .zst compresses it with zstd.", valueName: "out"))
    var out: String

    @Option(help: ArgumentHelp("Format of the input; inferred from its name when omitted.", valueName: "format"))
    var traceFormat: TraceFormat?

    @Option(help: ArgumentHelp("Columns of a libCacheSim CSV input, 1-based.", valueName: "time=N,id=N,size=N"))
    var columns: String?

    @Option(help: "Format to write; inferred from the output's name when omitted (cachelab's for .csv).")
    var format: TraceFormat?

    func validate() throws {
        guard input != out else { throw ValidationError("the output must not be the input") }
    }

    func run() async throws {
        let source = try TraceLoading.source(path: input, format: traceFormat, columns: columns)
        try await TraceWriting.write(
            source, format: TraceWriting.format(for: out, given: format), to: out, what: "convert")
    }
}

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
        Output.status(
            "profiled reuse distances of \(trace.count) requests in \(Report.decimal(seconds * 1000, places: 1)) ms")
        switch format {
        case .table: print(Self.table(trace: trace, statistics: statistics, profile: profile), terminator: "")
        case .csv: print(Self.csv(trace: trace, statistics: statistics, profile: profile), terminator: "")
        }
    }

    /// Label and value lines, then the log2 histogram of reuse distances as a table.
    static func table(trace: Trace, statistics: TraceStatistics, profile: ReuseProfile) -> String {
        func distance(_ percentile: Double) -> String {
            profile.objectDistance(atPercentile: percentile).map { "\($0) objects" } ?? "none"
        }
        let rows = [
            ["trace", trace.name],
            ["requests", String(statistics.requests)],
            ["unique objects", String(statistics.uniqueObjects)],
            ["working set bytes", String(statistics.workingSetBytes)],
            ["bytes requested", String(statistics.bytesRequested)],
            ["events", String(statistics.events)],
            ["cold requests", String(profile.coldRequests)],
            ["re-references", String(profile.reReferences)],
            ["reuse p50", distance(50)],
            ["reuse p90", distance(90)],
            ["reuse p99", distance(99)],
            ["reuse mean", profile.meanObjectDistance.map { Report.decimal($0, places: 2) + " objects" } ?? "none"],
            ["reuse mean bytes", profile.meanByteDistance.map { Report.decimal($0, places: 0) + " bytes" } ?? "none"],
            [
                "one-hit objects",
                "\(Report.percent(profile.oneHitWonderRatio)) (\(profile.oneHitWonders) of \(profile.uniqueObjects) objects)",
            ],
            [
                "one-hit requests",
                "\(Report.percent(profile.oneHitWonderRequestShare)) (\(profile.oneHitWonders) of \(profile.requests) requests)",
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

struct ImportTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Check and merge a recording made in an app by TraceRecorder, and say what it holds.",
        discussion: """
            PATH is a recording's folder, whose part-*.csv files are merged in name order, or one part. \
            Each part is cachelab's trace format with the recorder's source column (the tier that \
            answered each lookup in the app). A last line that a crash cut short is dropped and \
            counted; anything else malformed is an error naming the part and the line.

            With --out the merged trace is written in cachelab's format, for `cachelab run --trace FILE` \
            and `cachelab compare --trace FILE`. Those commands also take the folder itself as --trace.

            Example: cachelab trace import ~/Downloads/image-trace --out traces/app-week.csv
            """
    )

    @Argument(help: ArgumentHelp("A recording's folder, or one of its part files.", valueName: "path"))
    var path: String

    @Option(help: ArgumentHelp("Write the merged trace here (cachelab's format).", valueName: "path"))
    var out: String?

    func run() throws {
        let recording: Recording
        do {
            recording = try Recording.read(path: path)
        } catch {
            throw CLIError(error)
        }
        print(Self.table(recording), terminator: "")
        guard let out else {
            Output.status("checked; write the merged trace with --out FILE to replay it")
            return
        }
        do {
            try TraceWriter.write(recording.trace, format: .cachelab, to: out)
        } catch {
            throw CLIError("cannot write \(out): \(error)")
        }
        Output.status("wrote \(recording.trace.count) requests and \(recording.trace.events.count) events to \(out)")
    }

    /// Label and value lines: the parts, the requests and what the app's own cache made of them.
    static func table(_ recording: Recording) -> String {
        let trace = recording.trace
        let statistics = TraceStatistics(trace)
        let lookups = recording.sources.values.reduce(0, +)
        func share(_ source: String) -> String {
            let count = recording.sources[source, default: 0]
            return "\(Report.percent(lookups > 0 ? Double(count) / Double(lookups) : 0)) (\(count))"
        }
        let first = trace.times.first ?? 0
        let last = trace.times.last ?? 0
        var events: [String: Int] = [:]
        for event in trace.events { events[event.kind.rawValue, default: 0] += 1 }
        let rows = [
            ["parts", "\(recording.parts.count)"],
            ["requests", "\(statistics.requests)"],
            ["unique objects", "\(statistics.uniqueObjects)"],
            ["working set bytes", "\(statistics.workingSetBytes)"],
            ["bytes requested", "\(statistics.bytesRequested)"],
            ["span", "\(TraceWriter.seconds(fromMilliseconds: last - first)) s"],
            [
                "events",
                events.isEmpty
                    ? "none"
                    : events.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "),
            ],
            ["app: memory hits", share("memory")],
            ["app: disk hits", share("disk")],
            ["app: downloads", share("network")],
            ["partial lines", "\(recording.droppedPartialLines) dropped (a crash cut the last write short)"],
            ["times raised", "\(recording.raisedTimes) (earlier than the part before them)"],
        ]
        return rows.map { $0[0].padding(19) + $0[1] }.joined(separator: "\n") + "\n"
    }
}
