import ClientModel

extension RunResult {
    /// What ran and how: one policy as one tier in the simulator, or a client's tiers simulated
    /// or live. Each kind carries what only it measures, so a result holds no field that does
    /// not apply to it.
    public enum Kind: Sendable, Equatable, Codable {
        /// One policy as one tier, simulated (`cachelab run --policy`).
        case tier(TierMeasurements)
        /// A client's memory and disk tiers with its app events, simulated (`--client`,
        /// `--memory-policy` / `--disk-policy`, each of `tune`'s candidates).
        case client(ClientMeasurements)
        /// A client replayed through the real pipeline against a server (`--mode live`).
        case live(ClientMeasurements, LiveMeasurements)
    }

    /// How the run was made: its `mode` column.
    public var mode: RunMode {
        if case .live = kind { return .live }
        return .sim
    }

    /// A client run's configuration and what only a client run measures (`nil` for a single
    /// tier).
    public var client: ClientMeasurements? {
        switch kind {
        case .tier: nil
        case .client(let client), .live(let client, _): client
        }
    }

    /// What only a live run measures (`nil` for the simulator).
    public var live: LiveMeasurements? {
        if case .live(_, let live) = kind { return live }
        return nil
    }

    /// A single tier: entries cached at the end of the run (`nil` for a client).
    public var entries: Int? {
        if case .tier(let tier) = kind { return tier.entries }
        return nil
    }

    /// A single tier: the bookkeeping's peak bytes (`TierMeasurements.metadataBytes`; `nil` for a
    /// client).
    public var metadataBytes: Int? {
        if case .tier(let tier) = kind { return tier.metadataBytes }
        return nil
    }

    /// Every request's outcome in trace order, when the run recorded them
    /// (`ClientMeasurements.outcomes`).
    public var outcomes: [RequestOutcome]? { client?.outcomes }

    /// Per request, how close its timing came to changing whether it was a delayed hit
    /// (`ClientMeasurements.timingSlack`).
    public var timingSlack: [UInt32]? { client?.timingSlack }

    /// Changes what only a client run measures, simulated or live; nothing for a single tier.
    public mutating func updateClient(_ change: (inout ClientMeasurements) -> Void) {
        switch kind {
        case .tier:
            return
        case .client(var client):
            kind = .tier(TierMeasurements())  // lets `client` be changed in place, not copied
            change(&client)
            kind = .client(client)
        case .live(var client, let live):
            kind = .tier(TierMeasurements())
            change(&client)
            kind = .live(client, live)
        }
    }

    /// Changes what only a live run measures; a simulated client run becomes a live one.
    /// Nothing for a single tier, which never runs live.
    public mutating func updateLive(_ change: (inout LiveMeasurements) -> Void) {
        switch kind {
        case .tier:
            return
        case .client(let client):
            var live = LiveMeasurements()
            change(&live)
            kind = .live(client, live)
        case .live(let client, var live):
            change(&live)
            kind = .live(client, live)
        }
    }
}
