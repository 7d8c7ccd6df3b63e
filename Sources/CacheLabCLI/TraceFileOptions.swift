import ArgumentParser
import CacheLab

/// How to read trace files: shared by every command that takes them.
struct TraceFileOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Trace format (default: from the file name; a final .zst is zstd).",
            valueName: "format"))
    var traceFormat: TraceFormat?

    @Option(help: ArgumentHelp("Columns of a libCacheSim CSV trace, 1-based.", valueName: "time=N,id=N,size=N"))
    var columns: String?

    @Flag(
        help: ArgumentHelp(
            "Compute each request's next use (for belady and --vs-opt) by a pass over the trace, even for an oracleGeneral file (cachelab topic next-uses)."
        ))
    var computeNextUses = false

    /// The trace at `path` as a stream (a recording's folder read and merged now).
    func source(path: String) throws -> TraceSource {
        var source = try TraceLoading.source(path: path, format: traceFormat, columns: columns)
        source.computesNextUses = computeNextUses
        return source
    }
}
