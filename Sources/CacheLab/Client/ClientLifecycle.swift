/// What a client does to its tiers on an app event, decided once for the simulated and the live
/// replay: both carry out the actions it returns.
public enum ClientAction: Sendable, Equatable {
    /// The app was killed and started again: the memory tier is empty, the disk tier is opened
    /// anew from what it persisted (expired entries swept at open).
    case relaunch
    /// Evict from the memory tier, in its policy's order, down to this cost.
    case trimMemory(toCost: Int)
    /// Remove the disk tier's expired entries, then, if it holds more than `limit`, evict down to
    /// `limit × trimRatio`.
    case sweepDisk(limit: Int, trimRatio: Double)
    /// The person favourited the recipe of this photo: pin it in every tier that holds it, and in
    /// each tier that stores it later, while it stays a favourite.
    case pin(key: UInt64)
    /// The recipe was unfavourited: the photo counts against the capacities again.
    case unpin(key: UInt64)
}

/// A client's reaction to app events over a run. It remembers when the disk was last swept (an
/// app keeps that in its defaults, across launches).
public struct ClientLifecycle: Sendable {
    public let client: ClientConfiguration
    /// Trace time of the last disk sweep, if any.
    public private(set) var lastSweep: Int64?

    public init(client: ClientConfiguration) {
        self.client = client
    }

    /// The actions for `event`, in the order they are carried out.
    public mutating func actions(for event: TraceEvent) -> [ClientAction] {
        switch event.kind {
        case .relaunch:
            switch client.diskSweep {
            case .onInsert:
                return [.relaunch]
            case .atLaunch(let interval):
                guard lastSweep.map({ event.time - $0 >= interval }) ?? true else { return [.relaunch] }
                return [.relaunch] + sweepDisk(at: event.time)
            case .atBackgroundAndLaunch:
                return [.relaunch] + sweepDisk(at: event.time)
            }
        case .background:
            var actions: [ClientAction] = []
            if let share = client.memoryShareKeptInBackground, let memory = client.memory {
                actions.append(.trimMemory(toCost: Int(Double(memory.capacity) * share)))
            }
            if client.diskSweep == .atBackgroundAndLaunch { actions += sweepDisk(at: event.time) }
            return actions
        case .memoryWarning:
            guard let memory = client.memory else { return [] }
            return [.trimMemory(toCost: Int(Double(memory.capacity) * client.memoryShareKeptOnWarning))]
        case .foreground:
            return []
        case .favourite:
            return event.key.map { [.pin(key: $0)] } ?? []
        case .unfavourite:
            return event.key.map { [.unpin(key: $0)] } ?? []
        }
    }

    private mutating func sweepDisk(at now: Int64) -> [ClientAction] {
        guard let disk = client.disk else { return [] }
        lastSweep = now
        return [.sweepDisk(limit: disk.capacity, trimRatio: disk.trimRatio ?? 1)]
    }
}

extension ClientConfiguration {
    /// The memory tier's engine limits.
    public var memoryLimits: CacheConfiguration? {
        memory.map { limits($0, hard: true) }
    }

    /// The disk tier's engine limits. A disk swept at launch or in the background (a soft limit)
    /// takes everything between sweeps: its engine gets no real limit.
    public var diskLimits: CacheConfiguration? {
        disk.map { limits($0, hard: diskSweep == .onInsert) }
    }

    private func limits(_ tier: TierConfiguration, hard: Bool) -> CacheConfiguration {
        var limits = tier.policy.configuration(
            capacity: hard ? tier.capacity : 1 << 50, sizeMode: sizeMode, ttl: tier.ttl, ttlMode: tier.ttlMode,
            trimRatio: hard ? tier.trimRatio : 1)
        limits.admission = tier.admission
        return limits
    }
}
