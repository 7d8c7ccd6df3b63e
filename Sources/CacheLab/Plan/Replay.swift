import CacheEngine

/// Replays a trace held in memory through one cache or one client, sequentially and
/// deterministically: a run plan of one cell (see `RunPlan` for traces read from files, and for
/// many caches in one pass).
public enum Replay {
    /// Runs `trace` through a fresh cache built from `configuration` and counts what happened.
    ///
    /// Every request is a lookup; a miss downloads the object and inserts it. App events are
    /// applied between requests: with a `.memory` tier a relaunch empties the cache.
    /// The per-request path allocates nothing once the cache has warmed up. A policy that needs
    /// the future (Belady) is told each request's next use, computed once before the loop.
    ///
    /// - Parameters:
    ///   - trace: the requests and app events.
    ///   - configuration: the policy and its limits.
    ///   - latency: record every request's modelled latency in an HdrHistogram (the
    ///     default). Without it the result's latency is zero and the loop does only the cache's
    ///     work, which is what libCacheSim's throughput figures measure.
    public static func simulate(_ trace: Trace, _ configuration: RunConfiguration, latency: Bool = true) -> RunResult {
        RunPlan.replay(trace, [.simulate(configuration, latency: latency)], workers: 1)[0].run
    }

    /// Runs `trace` through a cache ordered by `order` instead of the configuration's policy
    /// (whose name, capacity and lifetime still label and limit the run): for a policy outside
    /// the registry, such as a variant under study or a deliberately broken one in a test.
    public static func simulate<Policy: EvictionPolicy & SendableMetatype>(
        _ trace: Trace, _ configuration: RunConfiguration, order: Policy.Type, latency: Bool = true
    ) -> RunResult {
        RunPlan.replay(trace, [.simulate(configuration, order: order, latency: latency)], workers: 1)[0].run
    }
}
