/// One tier of a client's image cache: its policy and limits.
public struct TierConfiguration: Sendable, Equatable {
    public var policy: PolicyKind
    /// Bytes, or objects in unit mode. For a tier with a soft limit (swept, not enforced on
    /// insert) this is the limit the sweeps trim against.
    public var capacity: Int
    public var ttl: Int64?
    public var ttlMode: TTLMode
    public var trimRatio: Double?
    /// What favourites may hold pinned in this tier, beside `capacity` (same unit); nil: as much
    /// as `capacity`. A pin that does not fit is refused and the image cached as usual.
    public var pinBudget: Int?

    public init(
        policy: PolicyKind, capacity: Int, ttl: Int64? = nil, ttlMode: TTLMode = .fixed, trimRatio: Double? = nil,
        pinBudget: Int? = nil
    ) {
        precondition(pinBudget.map { $0 >= 0 } ?? true, "a pin budget cannot be negative")
        self.policy = policy
        self.capacity = capacity
        self.ttl = ttl
        self.ttlMode = ttlMode
        self.trimRatio = trimRatio
        self.pinBudget = pinBudget
    }

    /// The pin budget in force: `pinBudget`, or the capacity.
    public var effectivePinBudget: Int { pinBudget ?? capacity }
}

/// When a disk tier enforces its size limit.
public enum DiskSweep: Sendable, Equatable {
    /// On every insertion, as the engine does: a hard limit.
    case onInsert
    /// At app launch, if the last sweep is older than the interval (ms): Nuke's `DataCache`.
    case atLaunch(minimumInterval: Int64)
    /// When the app goes to the background and at launch (after a termination): Kingfisher and
    /// SDWebImage.
    case atBackgroundAndLaunch
}

/// A client's whole image cache — a memory tier in front of a disk tier — and how it reacts to
/// app events. Either tier may be absent.
public struct ClientConfiguration: Sendable, Equatable {
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

    public init(
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

/// The image-cache setups real apps ship with, by name (`--client`). Sources: the defaults of
/// Nuke 13.2, Kingfisher 8.11 and SDWebImage 5.21 (see `../shared/client-caches.md` for the
/// files they come from), and the strategies of the recipe apps cachelab grew from.
public enum ClientPreset: String, CaseIterable, Sendable {
    /// An unlimited in-memory cache (often `NSCache`), gone when the app quits; no disk.
    case memoryOnly = "memory-only"
    /// Disk files keyed by the URL's hash, no limit, expiry or sweep; no memory tier.
    case diskUnbounded = "disk-unbounded"
    /// Nuke: memory LRU at 15 % of RAM (at most 768 MB), trimmed to 10 % in the background and
    /// cleared on a memory warning; opt-in `DataCache` of 150 MB, least recently used out down to
    /// 70 %, swept once at launch when the last sweep is over 30 minutes old.
    case nuke
    /// Kingfisher: memory at RAM / 4 with a 300 s sliding expiry, cleared on a memory warning;
    /// disk unlimited with a 7-day expiry after last access, swept in the background and at launch.
    case kingfisher
    /// SDWebImage: unlimited memory cleared on a memory warning; disk unlimited with a 7-day expiry
    /// after last access, swept in the background and at launch.
    case sdwebimage

    public var summary: String {
        switch self {
        case .memoryOnly: "unlimited memory, gone at relaunch, no disk (an NSCache and nothing else)"
        case .diskUnbounded: "disk files with no limit, expiry or sweep; no memory tier"
        case .nuke: "memory 15% of RAM; 150 MB disk trimmed to 70% at launch (30 min apart)"
        case .kingfisher: "memory RAM/4, 300 s sliding; unlimited disk, 7 days since last use"
        case .sdwebimage: "unlimited memory; unlimited disk, 7 days since last use"
        }
    }

    /// The preset for a device with `ram` bytes of memory.
    public func configuration(ram: Int, network: NetworkProfile = .wifi) -> ClientConfiguration {
        // "Unlimited" is a capacity no trace reaches: 2^50 bytes.
        let unlimited = 1 << 50
        let week: Int64 = 7 * 86_400_000
        switch self {
        case .memoryOnly:
            return ClientConfiguration(
                name: rawValue, memory: TierConfiguration(policy: .lru, capacity: unlimited), disk: nil,
                network: network)
        case .diskUnbounded:
            return ClientConfiguration(
                name: rawValue, memory: nil, disk: TierConfiguration(policy: .lru, capacity: unlimited),
                network: network)
        case .nuke:
            return ClientConfiguration(
                name: rawValue,
                memory: TierConfiguration(policy: .lru, capacity: min(ram * 15 / 100, 768 << 20)),
                disk: TierConfiguration(policy: .lru, capacity: 150_000_000, trimRatio: 0.7),
                diskSweep: .atLaunch(minimumInterval: 30 * 60_000), memoryShareKeptInBackground: 0.1,
                network: network)
        case .kingfisher:
            return ClientConfiguration(
                name: rawValue,
                memory: TierConfiguration(policy: .lru, capacity: ram / 4, ttl: 300_000, ttlMode: .sliding),
                disk: TierConfiguration(
                    policy: .lru, capacity: unlimited, ttl: week, ttlMode: .sliding, trimRatio: 0.5),
                diskSweep: .atBackgroundAndLaunch, network: network)
        case .sdwebimage:
            return ClientConfiguration(
                name: rawValue, memory: TierConfiguration(policy: .lru, capacity: unlimited),
                disk: TierConfiguration(
                    policy: .lru, capacity: unlimited, ttl: week, ttlMode: .sliding, trimRatio: 0.5),
                diskSweep: .atBackgroundAndLaunch, network: network)
        }
    }
}

extension ClientConfiguration {
    /// Throws `PolicyError.needsFuture` if a tier's policy needs each request's next use (Belady),
    /// which a client, simulated or real, does not have.
    public func requireOnline() throws(PolicyError) {
        try memory?.policy.requireOnline(for: "a client's memory tier")
        try disk?.policy.requireOnline(for: "a client's disk tier")
    }
}
