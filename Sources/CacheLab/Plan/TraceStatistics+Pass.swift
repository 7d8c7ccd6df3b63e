extension TraceStatistics {
    /// A trace's statistics: counted in place for a trace in memory (no pass), else by a pass over
    /// the file with one statistics cell, its progress heard in phase `.workingSet`.
    ///
    /// - Returns: the statistics, and the pass that measured them when one was made.
    static func measure(
        _ source: TraceSource, workers: Int, stopwatch: RunPlan.Stopwatch?,
        progress: (@Sendable (PlanProgress) -> Void)?
    ) throws(TraceError) -> (statistics: TraceStatistics, pass: PlanOutcome?) {
        if let trace = source.trace { return (TraceStatistics(trace), nil) }
        let measuring = progress.map { report in
            { @Sendable (progress: PlanProgress) in
                var progress = progress
                progress.phase = .workingSet
                report(progress)
            }
        }
        let pass = try RunPlan(source: source, cells: [.statistics]).execute(
            workers: workers, stopwatch: stopwatch, progress: measuring)
        guard case .statistics(let statistics) = pass.outputs[0] else {
            preconditionFailure("a statistics cell gives statistics")
        }
        return (statistics, pass)
    }
}
