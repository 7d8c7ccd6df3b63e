import CacheLab

/// Loads the trace a command asked for: a file, or the built-in scenario.
enum TraceLoading {
    static func load(path: String?, format: TraceFormat?, columns: String?, seed: UInt64) throws -> Trace {
        guard let path else { return RecipeScrollScenario(seed: seed).makeTrace() }
        do {
            let spec = try columns.map { text throws(TraceError) in try CSVColumns(parsing: text) }
            let start = Output.monotonicSeconds()
            let trace = try TraceReader.read(path: path, format: format, columns: spec)
            let seconds = Output.monotonicSeconds() - start
            Output.status("read \(trace.count) requests from \(path) in \(Report.decimal(seconds, places: 2)) s")
            return trace
        } catch {
            throw CLIError(error)
        }
    }
}
