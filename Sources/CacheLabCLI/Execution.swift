import CacheLab

/// Executes run plans for the commands: progress on a terminal, one status line of timing, and
/// the trace's errors as the CLI's.
enum Execution {
    /// Runs a `run` on this machine: the working set measured first when a capacity is a share of
    /// it, then the replay, with a progress bar for each pass; `--verbose` says what each pass did,
    /// the trace's statistics, and how many times the file was read.
    static func run(_ plan: RunRequest.Plan, jobs: JobOptions, what: String) async throws -> RunRequest.Plan.Outcome {
        let bar = ProgressBar(what, enabled: jobs.showsProgress)
        let outcome: RunRequest.Plan.Outcome
        do {
            outcome = try await blocking {
                try plan.execute(workers: jobs.jobs, stopwatch: { Output.monotonicSeconds() }, progress: bar.reading)
            }
        } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        if let pass = outcome.statisticsPass {
            Output.detail(
                "\(what): counted the objects of \(Report.grouped(pass.requests)) requests in a pass of \(seconds(pass.timing.wall))"
            )
        }
        if let statistics = outcome.statistics { Output.detail(TraceLoading.describe(plan.source.name, statistics)) }
        let workers = min(jobs.jobs, outcome.cells)
        Output.detail("\(what): " + timing(outcome.replay, cells: outcome.cells, workers: workers))
        let passes = plan.source.passes
        Output.detail("\(what): read \(plan.source.name) \(passes == 1 ? "once" : "\(passes) times")")
        return outcome
    }

    /// Runs blocking library work (which executes its plans on threads of its own) off the
    /// concurrency pool, its errors as the CLI's.
    static func blocking<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        let result = await Threads.detached { () -> Result<Value, any Error> in
            do { return .success(try body()) } catch { return .failure(error) }
        }
        do { return try result.get() } catch let error as TraceError { throw CLIError(error) } catch let error
            as CLIError
        {
            throw error
        } catch {
            throw CLIError("\(error)")
        }
    }

    /// Every output of a sweep, executed here: progress on a terminal, each trace's statistics
    /// when a pass measured them, and one timing line.
    static func sweep(
        _ plan: SweepPlan, jobs: JobOptions, what: String,
        statistics: @escaping @Sendable (String, TraceStatistics) -> Void = Execution.describe
    ) async throws -> [SweepOutput] {
        let bar = ProgressBar(what, enabled: jobs.showsProgress)
        let totals = PlanTotals()
        let outputs = try await blocking {
            try plan.outputs(workers: jobs.jobs, observer: totals.observer(bar), statistics: statistics)
        }
        bar.finish()
        Output.detail("\(what): " + totals.line(workers: jobs.jobs))
        return outputs
    }

    /// One shard of a sweep: its cells not yet in `outDir` computed and written there, each whole
    /// or not at all; the status says what was done and what the folder now holds.
    static func shard(
        _ plan: SweepPlan, _ shard: Shard, outDir: String, jobs: JobOptions, what: String
    ) async throws {
        let store = SweepStore(directory: outDir)
        do { try store.prepare(for: plan.manifest) } catch { throw CLIError("\(error)") }
        let cells = plan.cells(in: shard)
        let traces = Set(cells.map { plan.cells[$0].entry.trace }).count
        Output.status(
            "\(what) shard \(shard): \(cells.count) of the sweep's \(plan.cells.count) cells, on \(traces) of its \(plan.sources.count) trace\(plan.sources.count == 1 ? "" : "s"), into \(outDir)/"
        )
        let bar = ProgressBar(what, enabled: jobs.showsProgress)
        let totals = PlanTotals()
        let outcome = try await blocking {
            try plan.execute(
                cells, workers: jobs.jobs, observer: totals.observer(bar), store: store, statistics: Self.describe)
        }
        bar.finish()
        if outcome.tracesRead > 0 { Output.detail("\(what): " + totals.line(workers: jobs.jobs)) }
        let present = store.present(of: plan.manifest)
        let next =
            present == plan.cells.count
            ? "every cell is there: cachelab merge \(outDir)" : "once every shard has run: cachelab merge \(outDir)"
        Output.status(
            "shard \(shard): computed \(outcome.computed) cells, \(outcome.found) already there; \(outDir)/ holds \(present) of the \(plan.cells.count) cells; \(next)"
        )
    }

    /// The status line of a trace whose statistics a pass measured.
    @Sendable static func describe(_ name: String, _ statistics: TraceStatistics) {
        Output.detail(TraceLoading.describe(name, statistics))
    }

    /// "replayed N requests through C cells in T s (R M requests/s): reading T s, replaying T s
    /// (the busiest of W cores)".
    static func timing(_ outcome: PlanOutcome, cells: Int, workers: Int) -> String {
        timing(
            requests: outcome.requests, replays: outcome.requests * cells, timing: outcome.timing, cells: cells,
            workers: workers, traces: 1)
    }

    /// The timing line of one plan, or of several (`traces`) added up. `replays` counts each
    /// request once per cell it went through: the rate is theirs, the work the cores did.
    static func timing(
        requests: Int, replays: Int, timing: PlanTiming, cells: Int, workers: Int, traces: Int
    ) -> String {
        let rate = timing.wall > 0 ? Double(replays) / timing.wall / 1e6 : 0
        let of = traces > 1 ? " of \(traces) traces" : ""
        let through = cells == 1 ? "" : " over all cells"
        var line =
            "replayed \(Report.grouped(requests)) requests\(of) through \(cells) cell\(cells == 1 ? "" : "s") in \(seconds(timing.wall)) (\(Report.decimal(rate, places: 2)) M requests/s\(through))"
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
