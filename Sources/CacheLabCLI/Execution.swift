import CacheLab

/// Executes run plans for the commands: progress on a terminal, one status line of timing, and
/// the trace's errors as the CLI's.
enum Execution {
    /// Runs `plan` and says how long reading and replaying took.
    ///
    /// - Parameter what: names the work in the progress and status lines ("run", "compare
    ///   daily-reader").
    static func run(
        _ plan: RunPlan, jobs: JobOptions, what: String, summary: ((PlanOutcome) -> String)? = nil
    ) async throws -> PlanOutcome {
        let bar = ProgressBar(what, enabled: jobs.showsProgress)
        let outcome: PlanOutcome
        do {
            outcome = try await plan.execute(
                workers: jobs.jobs, stopwatch: { Output.monotonicSeconds() }, progress: bar.reading)
        } catch {
            bar.finish()
            throw CLIError(error)
        }
        bar.finish()
        Output.status(
            "\(what): "
                + (summary?(outcome)
                    ?? timing(outcome, cells: plan.cells.count, workers: min(jobs.jobs, plan.cells.count))))
        return outcome
    }

    /// Runs blocking library work (which executes its plans on threads of its own) off the
    /// concurrency pool, the trace's errors as the CLI's.
    static func blocking<Value: Sendable>(
        _ body: @escaping @Sendable () throws(TraceError) -> Value
    ) async throws -> Value {
        let result = await Threads.detached { () -> Result<Value, TraceError> in
            do throws(TraceError) { return .success(try body()) } catch { return .failure(error) }
        }
        do { return try result.get() } catch { throw CLIError(error) }
    }

    /// A miss-ratio curve: one pass (two when LRU's sizes change), with progress and timing.
    static func curve(
        _ source: TraceSource, _ request: MissRatioCurve.Request, jobs: JobOptions
    ) async throws -> [CurvePoint] {
        let bar = ProgressBar("mrc", enabled: jobs.showsProgress)
        let totals = PlanTotals()
        let points = try await blocking { () throws(TraceError) in
            try MissRatioCurve.compute(source, request, workers: jobs.jobs, observer: totals.observer(bar))
        }
        bar.finish()
        Output.status("mrc: " + totals.line(workers: jobs.jobs))
        return points
    }

    /// The trace's statistics: computed in place for a trace in memory, else by a pass over it.
    static func statistics(_ source: TraceSource, jobs: JobOptions) async throws -> TraceStatistics {
        if let trace = source.trace { return TraceStatistics(trace) }
        let outcome = try await run(RunPlan(source: source, cells: [.statistics]), jobs: jobs, what: "statistics") {
            "counted the objects of \(Report.grouped($0.requests)) requests in a pass of \(seconds($0.timing.wall))"
        }
        guard case .statistics(let statistics) = outcome.outputs[0] else {
            preconditionFailure("a statistics cell gives statistics")
        }
        return statistics
    }

    /// "replayed 20,000,000 requests through 3 cells in 2.31 s (8.66 M requests/s): reading 1.10 s,
    /// replaying 2.29 s (the busiest of 2 cores)".
    static func timing(_ outcome: PlanOutcome, cells: Int, workers: Int) -> String {
        timing(requests: outcome.requests, timing: outcome.timing, cells: cells, workers: workers, traces: 1)
    }

    /// The timing line of one plan, or of several (`traces`) added up.
    static func timing(requests: Int, timing: PlanTiming, cells: Int, workers: Int, traces: Int) -> String {
        let rate = timing.wall > 0 ? Double(requests) / timing.wall / 1e6 : 0
        let of = traces > 1 ? " of \(traces) traces" : ""
        var line =
            "replayed \(Report.grouped(requests)) requests\(of) through \(cells) cell\(cells == 1 ? "" : "s") in \(seconds(timing.wall)) (\(Report.decimal(rate, places: 2)) M requests/s)"
        if let nextUses = timing.nextUses {
            line += ": next uses \(seconds(nextUses)) first, then"
        } else {
            line += ":"
        }
        if timing.reading > 0 { line += " reading \(seconds(timing.reading))," }
        line +=
            " replaying \(seconds(timing.replaying))" + (workers > 1 ? " (the busiest of \(workers) cores)" : "")
        return line
    }

    private static func seconds(_ value: Double) -> String {
        value < 1 ? "\(Report.decimal(value * 1000, places: 1)) ms" : "\(Report.decimal(value, places: 2)) s"
    }
}
