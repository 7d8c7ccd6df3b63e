/// The disk tier on an executor of its own, as Nuke's `DataCache`, Kingfisher's `DiskStorage`
/// and SDWebImage's disk cache keep their file work on a queue of their own: its SQLite reads and
/// writes never run on `ImagePipeline`'s, so while the disk works, memory hits are answered and
/// new requests made. The pipeline awaits each operation; they run one at a time, in the order
/// asked, so the tier's state is what the same calls made in line would leave.
actor DiskQueue {
    private let tier: any ImageTier

    init(_ tier: sending any ImageTier) {
        self.tier = tier
    }

    func contains(_ url: String, at now: Int64) -> Bool { tier.contains(url, at: now) }

    func value(forKey url: String, at now: Int64) throws -> [UInt8]? { try tier.value(forKey: url, at: now) }

    /// Stores `bytes` under `url`, and pins the entry if `pinned` (a favourite's photo) and it
    /// was stored, in one turn of the queue.
    func insert(_ bytes: [UInt8], forKey url: String, at now: Int64, pixels: UInt32, pinned: Bool) throws {
        guard try tier.insert(bytes, forKey: url, at: now, pixels: pixels), pinned else { return }
        try tier.pin(url, at: now)
    }

    func pin(_ url: String, at now: Int64) throws -> Bool { try tier.pin(url, at: now) }

    func unpin(_ url: String, at now: Int64) throws { try tier.unpin(url, at: now) }

    func sweep(limit: Int, trimRatio: Double, at now: Int64) throws {
        try tier.sweep(limit: limit, trimRatio: trimRatio, at: now)
    }

    /// Which of `urls` the tier holds at `now` without a pin.
    func unpinned(among urls: Set<String>, at now: Int64) -> Set<String> {
        urls.filter { !tier.isPinned($0) && tier.contains($0, at: now) }
    }

    var counts: TierCounts { TierCounts(of: tier) }

    func checkInvariants() throws { try tier.checkInvariants() }
}
