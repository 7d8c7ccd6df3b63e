import ClientModel

/// What a client run (two tiers, app events, simulated or live) measures beyond the counts every
/// run has, with the configuration it ran. Its configuration's properties read through it
/// (`result.client?.memory`).
@dynamicMemberLookup
public struct ClientMeasurements: Sendable, Equatable, Codable {
    /// The two tiers and their event handling (`--client`, `--memory-policy`…).
    public var configuration: ClientConfiguration
    /// `favourite` and `unfavourite` events replayed.
    public var favouriteEvents = 0
    /// What favourites held pinned, apart from the capacities.
    public var pins = PinSummary()
    /// The most the memory tier held at once, pinned images included, in its unit (decoded bytes
    /// under `MemoryCost.decoded`).
    public var memoryPeakCost = 0
    /// The most bytes the disk tier held at once, pinned images included (a soft limit, swept at
    /// launch or in the background, is overshot between sweeps).
    public var diskPeakBytes = 0
    /// Requests that waited for a download another request had started
    /// (`RequestOutcome.delayed`): in neither `hits` nor `misses`, and no bytes downloaded.
    public var delayedHits = 0
    /// Prefetches never made (`RequestOutcome.dropped`): stopped while they waited, or asked for
    /// a photo already being prefetched. Not requests.
    public var droppedPrefetches = 0
    /// The share of all requests' latency, summed, spent in delayed hits.
    public var delayedLatencyShare = 0.0
    /// Every request's outcome in trace order: a live run's, and a simulated run's that asked for
    /// them (`nil` otherwise).
    public var outcomes: [RequestOutcome]?
    /// A simulated run that asked for outcomes: per request, how close its timing came to
    /// changing whether it was a delayed hit, in microseconds of trace time: its distance to the
    /// end of its image's latest download (`UInt32.max` when there was none) (`OutcomeAgreement`).
    /// `nil` otherwise.
    public var timingSlack: [UInt32]?

    public init(configuration: ClientConfiguration) {
        self.configuration = configuration
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<ClientConfiguration, Value>) -> Value {
        configuration[keyPath: keyPath]
    }
}
