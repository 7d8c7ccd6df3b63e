import ArgumentParser
import CacheLab

/// How to read a trace file, or which built-in scenario to make: shared by every command that
/// replays or inspects a trace.
struct TraceReadingOptions: ParsableArguments {
    @Option(help: "Trace format; inferred from the file name when omitted (.oracleGeneral.bin, .txt, .csv).")
    var traceFormat: TraceFormat?

    @Option(help: ArgumentHelp("Columns of a libCacheSim CSV trace, 1-based.", valueName: "time=N,id=N,size=N"))
    var columns: String?

    /// The generated scenario to replay when no trace file is given.
    @OptionGroup(title: "Generated scenario (when no trace file is given)") var generator: ScenarioOptions

    /// The trace at `path`, or the built-in scenario when `path` is nil.
    func load(path: String?) throws -> Trace {
        if columns != nil, path == nil {
            throw ValidationError("--columns applies to a trace file in libCacheSim's CSV format")
        }
        guard let path else { return try generator.makeTrace() }
        return try TraceLoading.load(path: path, format: traceFormat, columns: columns)
    }
}

/// Loads the trace a command asked for: a file, or the built-in scenario.
enum TraceLoading {
    static func load(path: String, format: TraceFormat?, columns: String?) throws -> Trace {
        do {
            let spec = try columns.map { text throws(TraceError) in try CSVColumns(parsing: text) }
            let start = Output.monotonicSeconds()
            if Recording.isFolder(path) && format == nil && spec == nil {
                // A recording's folder (`cachelab trace import` checks and merges it the same way).
                let recording = try Recording.read(path: path)
                Output.status(
                    "read \(recording.trace.count) requests from the \(recording.parts.count) parts of the recording \(path)"
                )
                return recording.trace
            }
            let trace = try TraceReader.read(path: path, format: format, columns: spec)
            let seconds = Output.monotonicSeconds() - start
            Output.status("read \(trace.count) requests from \(path) in \(Report.decimal(seconds, places: 2)) s")
            return trace
        } catch {
            throw CLIError(error)
        }
    }
}
