import CacheLab

/// Writes traces for `trace generate` and `trace convert`: the format an output name implies,
/// progress on a terminal, one status line of what was written.
enum TraceWriting {
    /// The format to write `out` in: the one asked for, else the one its name implies, except that
    /// a `.csv` name alone keeps cachelab's format (it is CSV too, and libCacheSim's CSV would drop
    /// the URLs and the events).
    static func format(for out: String, given: TraceFormat?) -> TraceFormat {
        if let given { return given }
        let inferred = TraceFormat.inferred(fromPath: out)
        return inferred == .csv ? .cachelab : inferred ?? .cachelab
    }

    /// Streams `source` to `out` in `format` a chunk at a time (zstd when `out` ends in `.zst`);
    /// the file appears whole or not at all.
    static func write(_ source: TraceSource, format: TraceFormat, to out: String, what: String) async throws {
        let bar = ProgressBar(what)
        let started = Output.monotonicSeconds()
        let written: TraceWriter.Written
        do {
            written = try await Execution.blocking { () throws(TraceError) in
                try TraceWriter.write(source, format: format, to: out, progress: bar.reading)
            }
        } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        let seconds = Output.monotonicSeconds() - started
        let rate = seconds > 0 ? Double(written.requests) / seconds / 1e6 : 0
        let events = written.events > 0 ? " and \(Report.grouped(written.events)) events" : ""
        Output.status(
            "\(what): wrote \(Report.grouped(written.requests)) requests\(events) to \(out) (\(format.rawValue))")
        Output.detail(
            "\(what): in \(Report.decimal(seconds, places: 2)) s (\(Report.decimal(rate, places: 1)) M requests/s)")
    }
}
