import CacheLab
import CacheLabLocking

/// The plans a command executes, added up for its one timing line: requests, and where the time
/// went (reading, replaying, next uses) over every trace.
final class PlanTotals: Sendable {
    private struct State: Sendable {
        var plans = 0
        var cells = 0
        var requests = 0
        /// Each plan's requests times its cells.
        var replays = 0
        var timing = PlanTiming(wall: 0, reading: 0, replaying: 0, nextUses: nil)
    }

    private let state = Locked(State())

    /// An observer that times each plan, draws `bar` as it reads, and adds the plan up here.
    func observer(_ bar: ProgressBar? = nil) -> PlanObserver {
        PlanObserver(
            stopwatch: { Output.monotonicSeconds() }, progress: bar?.reading,
            finished: { [state] outcome in
                let timing = outcome.timing
                state.withLock { state in
                    state.plans += 1
                    state.cells += outcome.outputs.count
                    state.requests += outcome.requests
                    state.replays += outcome.requests * outcome.outputs.count
                    state.timing.wall += timing.wall
                    state.timing.reading += timing.reading
                    state.timing.replaying += timing.replaying
                    if let nextUses = timing.nextUses {
                        state.timing.nextUses = (state.timing.nextUses ?? 0) + nextUses
                    }
                }
            })
    }

    /// "replayed 1,234,567 requests of 8 traces through 416 cells in …: reading …, replaying …"
    /// (the cells of every plan; `workers` the cores each plan had).
    func line(workers: Int) -> String {
        let state = state.withLock { $0 }
        return Execution.timing(
            requests: state.requests, replays: state.replays, timing: state.timing, cells: state.cells,
            workers: workers, traces: state.plans)
    }
}
