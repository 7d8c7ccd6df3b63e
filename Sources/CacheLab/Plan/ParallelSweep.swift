import CacheLabLocking
import Dispatch
import Synchronization

/// Runs independent jobs on every core and returns their results in job order.
///
/// Sweeps over many policies and capacities are embarrassingly parallel: each replay owns its
/// cache and reads the shared, immutable trace. Workers take the next job from a shared counter,
/// so a slow job (a large capacity, an expensive policy) does not hold up the others, and the
/// results do not depend on which worker ran what.
public enum ParallelSweep {
    /// The cores the sweep uses by default.
    public static var defaultWorkers: Int { max(1, System.activeProcessors) }

    /// `body(0) ... body(count - 1)`, each run once on one of `workers` threads.
    ///
    /// - Parameters:
    ///   - count: the number of jobs.
    ///   - workers: threads running them at once.
    ///   - progress: called after each job, with the number finished so far, one call at a time
    ///     (from whichever worker finished it).
    ///   - body: the job of each index.
    public static func map<Result: Sendable>(
        _ count: Int,
        workers: Int = defaultWorkers,
        progress: (@Sendable (_ finished: Int) -> Void)? = nil,
        _ body: @Sendable (Int) -> Result
    ) -> [Result] {
        guard count > 0 else { return [] }
        let next = Atomic<Int>(0)
        let state = Locked<(results: [Result?], finished: Int)>((Array(repeating: nil, count: count), 0))
        let threads = min(max(workers, 1), count)
        @Sendable func work() {
            while true {
                let job = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard job < count else { return }
                let result = body(job)
                state.withLock { state in
                    state.results[job] = result
                    state.finished += 1
                    progress?(state.finished)
                }
            }
        }
        if threads == 1 {
            work()
        } else {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in work() }
        }
        return state.withLock { $0.results.map { $0! } }
    }
}
