import ClientModel

extension Replay {
    /// Replays `trace` through a client's two tiers: a lookup tries memory, then disk, then the
    /// network; a disk hit is copied into memory; a download goes into both. App events act as
    /// the client does (`ClientLifecycle`): a relaunch empties memory and reopens the disk from
    /// what it persisted, going to the background may trim memory and sweep the disk, a memory
    /// warning trims memory.
    ///
    /// A relaunch models the real disk tier (`DiskTier` over SQLite), which persists each entry's
    /// size and last use but not its policy's private state: the disk's order is rebuilt from
    /// last use, each entry re-inserted at its last-use time. For LRU-ordered policies without a
    /// fixed TTL that changes nothing; for FIFO, LFU or a fixed TTL it is what a relaunched app
    /// really has.
    ///
    /// Downloads take time: each miss's download ends when the client's `NetworkProfile` says
    /// (`LatencyModel.missMicroseconds`), and a request for an image still being downloaded then
    /// waits for it: a delayed hit (`RequestOutcome.delayed`), as the real pipeline coalesces it.
    /// A hit changes its tier at its request's time; a download's image is stored when it ends,
    /// as `ImagePipeline` stores it; the downloads under way end at an app event.
    ///
    /// A client has no future knowledge: a tier whose policy needs it (Belady) is a programmer
    /// mistake here; check `ClientConfiguration.requireOnline()` first.
    ///
    /// - Parameters:
    ///   - trace: the requests and app events.
    ///   - client: the two tiers and how they react to app events.
    ///   - outcomes: also return every request's `RequestOutcome`, in trace order (for
    ///     comparing with a live replay).
    public static func simulate(_ trace: Trace, client: ClientConfiguration, outcomes: Bool = false) -> RunResult {
        RunPlan.replay(trace, [.client(client, outcomes: outcomes)], workers: 1)[0].run
    }
}
