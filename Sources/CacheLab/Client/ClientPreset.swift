import CacheEngine
import ClientModel

/// The image-cache setups real apps ship with, by name (`--client`): the defaults of six image
/// libraries, read from their sources (the rules and the files they come from are in the DocC
/// article "Client presets"), and the strategies of the recipe apps cachelab grew from.
///
/// Memory tiers cost decoded bitmaps, as every one of these libraries does. What is not modelled:
/// NSCache's order (Kingfisher, SDWebImage), taken as LRU; Glide's and Fresco's in-use images
/// held outside the cache; Fresco's 256-entry count limit and its encoded-bytes memory cache;
/// Coil's weak cache; Coil's lack of request coalescing (every client here coalesces).
public enum ClientPreset: String, CaseIterable, Sendable {
    /// An unlimited in-memory cache (often `NSCache`), gone when the app quits; no disk.
    case memoryOnly = "memory-only"
    /// Disk files keyed by the URL's hash, no limit, expiry or sweep; no memory tier.
    case diskUnbounded = "disk-unbounded"
    /// Nuke 13.2: memory CLOCK at 15 % of RAM (at most 768 MiB), no entry of 10 % of that or
    /// more, trimmed to 10 % in the background and cleared under memory pressure; the opt-in
    /// `DataCache` of 150 MiB, least recently used out down to 70 %, swept once at launch when the
    /// last sweep is over 30 minutes old.
    case nuke
    /// Kingfisher 8.11: memory at RAM / 4 with a 300 s sliding expiry, cleared on a memory warning
    /// and purged (by NSCache) in the background; disk unlimited with a 7-day expiry after last
    /// access, swept in the background and at launch.
    case kingfisher
    /// SDWebImage 5.21: unlimited memory, cleared on a memory warning and purged in the
    /// background; disk unlimited with a 7-day expiry after last access, swept in the background
    /// and at launch.
    case sdwebimage
    /// Glide 5.0: memory LRU of two screens of pixels within 0.4 (low-RAM 0.33) of the memory
    /// class, halved when the UI is hidden and cleared on low memory; disk 250 MiB, LRU, enforced
    /// on every write.
    case glide
    /// Coil 3.5: memory LRU of 0.20 (low-RAM 0.15) of the memory class, cleared on low memory and
    /// kept in the background; disk of 2 % of free space within 10–250 MiB, enforced on every write.
    case coil
    /// Fresco 3.7: memory LRU of a quarter of the memory class (4 or 6 MiB on small heaps), not
    /// trimmed by default; disk 40 MiB, trimmed to 90 % before a write that finds it full.
    case fresco

    public var summary: String {
        switch self {
        case .memoryOnly: "unlimited memory, gone at relaunch, no disk (an NSCache and nothing else)"
        case .diskUnbounded: "disk files with no limit, expiry or sweep; no memory tier"
        case .nuke: "memory 15% of RAM (CLOCK); 150 MiB disk trimmed to 70% at launch (30 min apart)"
        case .kingfisher: "memory RAM/4, 300 s sliding, purged in background; unlimited disk, 7 days"
        case .sdwebimage: "unlimited memory purged in background; unlimited disk, 7 days since last use"
        case .glide: "memory 2 screens (within 0.4 x memory class); 250 MiB disk, enforced on write"
        case .coil: "memory 0.2 x memory class; disk 2% of free space (10-250 MiB), enforced on write"
        case .fresco: "memory 1/4 of memory class, never trimmed; 40 MiB disk trimmed to 90%"
        }
    }

    /// The preset for a device with `ram` bytes of memory (an iPhone 15's screen).
    public func configuration(ram: Int, network: NetworkProfile = .wifi) -> ClientConfiguration {
        configuration(device: .generic(ram: ram), network: network)
    }

    /// The preset as the library sizes itself on `device`.
    public func configuration(device: DeviceProfile, network: NetworkProfile = .wifi) -> ClientConfiguration {
        let unlimited = CacheConfiguration.unlimited
        let week: Int64 = 7 * 86_400_000
        let mebibyte = 1 << 20
        let memoryClass = device.effectiveMemoryClass
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
            let limit = min(device.ram * 15 / 100, 768 * mebibyte)
            return ClientConfiguration(
                name: rawValue,
                // Stored only when it costs strictly less than 10 % of the limit.
                memory: TierConfiguration(policy: .clock, capacity: limit, largestEntry: Int(Double(limit) * 0.1) - 1),
                disk: TierConfiguration(policy: .lru, capacity: 150 * mebibyte, trimRatio: 0.7),
                diskSweep: .atLaunch(minimumInterval: 30 * 60_000), memoryShareKeptInBackground: 0.1,
                network: network)
        case .kingfisher:
            return ClientConfiguration(
                name: rawValue,
                memory: TierConfiguration(policy: .lru, capacity: device.ram / 4, ttl: 300_000, ttlMode: .sliding),
                disk: TierConfiguration(
                    policy: .lru, capacity: unlimited, ttl: week, ttlMode: .sliding, trimRatio: 0.5),
                diskSweep: .atBackgroundAndLaunch, memoryShareKeptInBackground: 0, network: network)
        case .sdwebimage:
            return ClientConfiguration(
                name: rawValue, memory: TierConfiguration(policy: .lru, capacity: unlimited),
                disk: TierConfiguration(
                    policy: .lru, capacity: unlimited, ttl: week, ttlMode: .sliding, trimRatio: 0.5),
                diskSweep: .atBackgroundAndLaunch, memoryShareKeptInBackground: 0, network: network)
        case .glide:
            return ClientConfiguration(
                name: rawValue, memory: TierConfiguration(policy: .lru, capacity: Self.glideMemory(device)),
                disk: TierConfiguration(policy: .lru, capacity: 250 * mebibyte),
                // UI hidden (level 20): trim to half the maximum; low memory: clear.
                memoryShareKeptInBackground: 0.5, network: network)
        case .coil:
            let disk = min(max(device.freeDisk / 50, 10 * mebibyte), 250 * mebibyte)
            return ClientConfiguration(
                name: rawValue,
                memory: TierConfiguration(
                    policy: .lru, capacity: Int(Double(memoryClass) * (device.isLowRam ? 0.15 : 0.20))),
                disk: TierConfiguration(policy: .lru, capacity: disk), network: network)
        case .fresco:
            let memory =
                memoryClass < 32 * mebibyte
                ? 4 * mebibyte : memoryClass < 64 * mebibyte ? 6 * mebibyte : memoryClass / 4
            return ClientConfiguration(
                name: rawValue, memory: TierConfiguration(policy: .lru, capacity: memory),
                disk: TierConfiguration(policy: .lru, capacity: 40 * mebibyte, trimRatio: 0.9),
                // No trim registry by default: a warning keeps everything.
                memoryShareKeptOnWarning: 1, network: network)
        }
    }

    /// Glide's `MemorySizeCalculator`: two screens of ARGB_8888 for the memory cache, one for the
    /// bitmap pool (none on a low-RAM device), 4 MiB of arrays (2 on low RAM), all within 0.4
    /// (0.33 on low RAM) of the memory class; when they do not fit, cache and pool share what is
    /// left in proportion to their screens.
    static func glideMemory(_ device: DeviceProfile) -> Int {
        let screen = device.screenBytes
        let cacheScreens = 2
        let poolScreens = device.isLowRam ? 0 : 1
        let arrays = (device.isLowRam ? 2 : 4) << 20
        let maximum = Int(Double(device.effectiveMemoryClass) * (device.isLowRam ? 0.33 : 0.4))
        let available = maximum - arrays
        if (cacheScreens + poolScreens) * screen <= available { return cacheScreens * screen }
        return available * cacheScreens / (cacheScreens + poolScreens)
    }
}
