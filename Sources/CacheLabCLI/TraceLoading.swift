import ArgumentParser
import CacheLab

/// How to read a trace file, or which built-in scenario to make: shared by every command that
/// replays or inspects a trace.
struct TraceReadingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Trace format; inferred from the file name when omitted (.oracleGeneral.bin, .txt, .csv; a final .zst is zstd).",
            valueName: "format"))
    var traceFormat: TraceFormat?

    @Option(help: ArgumentHelp("Columns of a libCacheSim CSV trace, 1-based.", valueName: "time=N,id=N,size=N"))
    var columns: String?

    @Flag(
        help: ArgumentHelp(
            "Compute each request's next use (for belady and --vs-opt) by a pass over the trace even when it is an oracleGeneral file, whose next_access_vtime field is otherwise used.",
            discussion:
                "The pass reads the trace once more before the replay and writes 16 bytes a request to unlinked temporary files in $TMPDIR; memory stays at about 40 bytes per distinct object."
        ))
    var computeNextUses = false

    /// The generated scenario to replay when no trace file is given.
    @OptionGroup(title: "Generated scenario (when no trace file is given)") var generator: ScenarioOptions

    /// The trace at `path` as a stream, or the built-in scenario when `path` is nil.
    func source(path: String?) throws -> TraceSource {
        if columns != nil, path == nil {
            throw ValidationError("--columns applies to a trace file in libCacheSim's CSV format")
        }
        guard let path else { return try generator.makeSource() }
        var source = try TraceLoading.source(path: path, format: traceFormat, columns: columns)
        source.computesNextUses = computeNextUses
        return source
    }

    /// The trace at `path`, or the built-in scenario, held in memory.
    func load(path: String?) throws -> Trace {
        try TraceLoading.load(source(path: path))
    }
}

/// The traces commands read: files streamed, recordings merged, everything else held in memory.
enum TraceLoading {
    /// A trace file as a stream (its errors come when it is read), or a recording's folder, read
    /// and merged now.
    static func source(path: String, format: TraceFormat?, columns: String?) throws -> TraceSource {
        do {
            let spec = try columns.map { text throws(TraceError) in try CSVColumns(parsing: text) }
            if Recording.isFolder(path) && format == nil && spec == nil {
                // A recording's folder (`cachelab trace import` checks and merges it the same way).
                let recording = try Recording.read(path: path)
                Output.status(
                    "read \(recording.trace.count) requests from the \(recording.parts.count) parts of the recording \(path)"
                )
                return TraceSource(recording.trace)
            }
            return TraceSource.file(path, format: format, columns: spec)
        } catch {
            throw CLIError(error)
        }
    }

    /// The trace a source gives, held in memory (for the live replay, `trace stats`, `serve`).
    static func load(_ source: TraceSource) throws -> Trace {
        if let trace = source.trace { return trace }
        let start = Output.monotonicSeconds()
        do {
            var trace = try source.open().readAll()
            trace.name = source.name
            let seconds = Output.monotonicSeconds() - start
            Output.status(
                "read \(Report.grouped(trace.count)) requests from \(source.name) in \(Report.decimal(seconds, places: 2)) s"
            )
            return trace
        } catch {
            throw CLIError(error)
        }
    }

    /// The status line about a trace whose statistics are known.
    static func describe(_ name: String, _ statistics: TraceStatistics) -> String {
        "trace \(name): \(statistics.requests) requests, \(statistics.uniqueObjects) objects, working set \(statistics.workingSetBytes) bytes"
    }
}
