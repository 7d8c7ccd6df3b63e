import ClientModel

/// What every replay counts as it goes, and the one place those counts become a result's figures:
/// the simulator, the simulated client and the live replay all tally through it, so a hit, a
/// byte saved and a miss mean the same in each.
public struct RunTally: Sendable, Equatable {
    public private(set) var requests = 0
    /// Hits in either tier (a single-tier run counts its hits here and says which tier at the end).
    public private(set) var hits = 0
    public private(set) var memoryHits = 0
    /// Requests whose download failed (live replay only).
    public private(set) var failures = 0
    /// Requests that waited for a download another request had started (`RequestOutcome.delayed`).
    public private(set) var delayedHits = 0
    public private(set) var bytesDelayed = 0
    public private(set) var bytesRequested = 0
    public private(set) var bytesHit = 0
    /// Prefetches never made (`RequestOutcome.dropped`): not requests.
    public private(set) var droppedPrefetches = 0
    /// Bytes of downloads cancelled before they ended (a stopped prefetch's): not downloaded.
    public private(set) var bytesCancelled = 0

    public init() {}

    /// One request of `size` bytes, served as `outcome` says.
    @inline(__always)
    public mutating func record(_ outcome: RequestOutcome, size: Int) {
        switch outcome {
        case .memory:
            memoryHits &+= 1
            hit(size: size)
        case .disk:
            hit(size: size)
        case .network:
            miss(size: size)
        case .failed:
            failures &+= 1
            miss(size: size)
        case .delayed:
            delayedHits &+= 1
            bytesDelayed &+= size
            miss(size: size)
        case .dropped:
            droppedPrefetches &+= 1
        }
    }

    /// A download of `size` bytes, counted by the miss that started it, was cancelled before it
    /// ended: it downloaded nothing.
    public mutating func cancelled(size: Int) {
        bytesCancelled &+= size
    }

    /// One request that hit a single-tier cache (`apply(to:tier:)` says which tier).
    @inline(__always)
    public mutating func hit(size: Int) {
        requests &+= 1
        hits &+= 1
        bytesRequested &+= size
        bytesHit &+= size
    }

    /// One request that missed.
    @inline(__always)
    public mutating func miss(size: Int) {
        requests &+= 1
        bytesRequested &+= size
    }

    /// Writes the counts into `result`: requests, hits by tier, delayed hits, misses and bytes (a live replay
    /// reports `failures` in its `LiveMeasurements`).
    ///
    /// - Parameters:
    ///   - result: the run the counts go into.
    ///   - tier: for a single-tier run, the tier all its hits were served by; `nil` for a client,
    ///     whose `record` calls said so request by request.
    ///   - bytesDownloaded: what came over the network, when it was measured (live replay);
    ///     otherwise every miss downloaded its own size (a delayed hit downloaded nothing, nor a
    ///     cancelled download).
    public func apply(to result: inout RunResult, tier: TierKind? = nil, bytesDownloaded: Int? = nil) {
        result.requests = requests
        result.hits = hits
        switch tier {
        case .memory?:
            result.memoryHits = hits
            result.diskHits = 0
        case .disk?:
            result.memoryHits = 0
            result.diskHits = hits
        case nil:
            result.memoryHits = memoryHits
            result.diskHits = hits - memoryHits
        }
        // Only a client's pipeline makes a request wait for another's download.
        assert(delayedHits == 0 || result.client != nil, "a delayed hit in a single-tier run")
        result.updateClient { $0.delayedHits = delayedHits }
        result.misses = requests - hits - delayedHits
        result.bytesRequested = bytesRequested
        result.bytesHit = bytesHit
        result.bytesDownloaded = bytesDownloaded ?? (bytesRequested - bytesHit - bytesDelayed - bytesCancelled)
        result.updateClient { $0.droppedPrefetches = droppedPrefetches }
    }
}
