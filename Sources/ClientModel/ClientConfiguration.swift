import CacheEngine

/// A client's whole image cache — a memory tier in front of a disk tier — and how it reacts to
/// app events. Either tier may be absent.
public struct ClientConfiguration: Sendable, Equatable, Codable {
    /// The preset's name, or a description of a custom setup, for reports.
    public var name: String
    public var memory: TierConfiguration?
    public var disk: TierConfiguration?
    public var diskSweep: DiskSweep
    /// On `background`, trim the memory tier to this share of its capacity (nil: keep it).
    public var memoryShareKeptInBackground: Double?
    /// On `memory_warning`, keep this share of the memory tier (0: clear it).
    public var memoryShareKeptOnWarning: Double
    public var sizeMode: SizeMode
    public var network: NetworkProfile
    /// What the memory tier charges for an image: its decoded bitmap (the default, as image
    /// libraries do, where the trace gives pixels) or its encoded bytes.
    public var memoryCost: MemoryCost

    @inlinable public init(
        name: String, memory: TierConfiguration?, disk: TierConfiguration?, diskSweep: DiskSweep = .onInsert,
        memoryShareKeptInBackground: Double? = nil, memoryShareKeptOnWarning: Double = 0,
        sizeMode: SizeMode = .bytes, network: NetworkProfile = .wifi, memoryCost: MemoryCost = .decoded
    ) {
        precondition(memory != nil || disk != nil, "a client needs at least one tier")
        self.name = name
        self.memory = memory
        self.disk = disk
        self.diskSweep = diskSweep
        self.memoryShareKeptInBackground = memoryShareKeptInBackground
        self.memoryShareKeptOnWarning = memoryShareKeptOnWarning
        self.sizeMode = sizeMode
        self.network = network
        self.memoryCost = memoryCost
    }
}

extension ClientConfiguration {
    /// The same client with each tier's capacity held to a budget (`tune`'s comparison at equal
    /// budgets): memory to `memory` (its cost's unit), disk to `disk` bytes. Memory's pin budget
    /// is held to its capacity too; the disk's is kept, since it does not follow the capacity
    /// (`diskPinBudget`).
    @inlinable public func capped(memory memoryBudget: Int, disk diskBudget: Int) -> ClientConfiguration {
        var capped = self
        if var tier = capped.memory {
            let scale = Double(min(tier.capacity, memoryBudget)) / Double(tier.capacity)
            tier.capacity = min(tier.capacity, memoryBudget)
            tier.pinBudget = tier.pinBudget.map { min($0, tier.capacity) }
            // A largest entry given as a share of the limit (Nuke's tenth) keeps its share.
            tier.largestEntry = tier.largestEntry.map { Int(Double($0) * scale) }
            capped.memory = tier
        }
        if var tier = capped.disk {
            tier.capacity = min(tier.capacity, diskBudget)
            capped.disk = tier
        }
        return capped
    }

    /// The same client with each tier it has at exactly these capacities (`tune`'s comparison at
    /// the recommended size): what differs is then the policies, lifetimes and reactions to app
    /// events. A largest entry given as a share of the limit keeps its share; memory's pin budget
    /// is held to its capacity.
    @inlinable public func resized(memory memoryCapacity: Int, disk diskCapacity: Int) -> ClientConfiguration {
        var resized = self
        if var tier = resized.memory {
            let scale = Double(memoryCapacity) / Double(tier.capacity)
            tier.capacity = memoryCapacity
            tier.pinBudget = tier.pinBudget.map { min($0, memoryCapacity) }
            tier.largestEntry = tier.largestEntry.map { Int(Double($0) * scale) }
            resized.memory = tier
        }
        resized.disk?.capacity = diskCapacity
        return resized
    }

    /// The memory tier's pin budget in force: its `pinBudget`, or its capacity (0 without one).
    @inlinable public var memoryPinBudget: Int {
        memory.map { $0.pinBudget ?? $0.capacity } ?? 0
    }

    /// The disk tier's pin budget in force: its `pinBudget`, or `defaultDiskPinBudget(for:)`
    /// whatever its capacity (0 without a disk tier).
    @inlinable public var diskPinBudget: Int {
        disk.map { $0.pinBudget ?? Self.defaultDiskPinBudget(for: sizeMode) } ?? 0
    }

    /// What a disk tier lets favourites pin when its configuration does not say: 10,000,000 bytes
    /// (64 favourites with both photos at 154 KB; see `TierConfiguration.pinBudget`), or 128
    /// entries in unit mode.
    @inlinable public static func defaultDiskPinBudget(for sizeMode: SizeMode) -> Int {
        switch sizeMode {
        case .bytes: 10_000_000
        case .unit: 128
        }
    }

    /// Throws `PolicyError.needsFuture` if a tier's policy needs each request's next use (Belady),
    /// which a client, simulated or real, does not have.
    @inlinable public func requireOnline() throws(PolicyError) {
        try memory?.policy.requireOnline(for: "a client's memory tier")
        try disk?.policy.requireOnline(for: "a client's disk tier")
    }
}
