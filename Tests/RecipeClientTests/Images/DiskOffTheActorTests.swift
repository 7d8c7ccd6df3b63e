import CacheEngine
import ClientModel
import Foundation
import Testing

@testable import RecipeClient

/// The disk tier works on an executor of its own: while it is busy, the pipeline still answers
/// memory hits and takes new requests.
@Suite("The disk off the pipeline's actor")
struct DiskOffTheActorTests {
    /// A tier that holds images in memory and takes `microseconds` over every lookup, as a slow disk does
    /// (blocking its thread, as SQLite does).
    final class SlowTier: ImageTier {
        let inner = MemoryTier<LRUPolicy>(configuration: CacheConfiguration(capacity: 1 << 20), cost: .encoded)
        let microseconds: useconds_t

        init(microseconds: useconds_t) {
            self.microseconds = microseconds
        }

        var count: Int { inner.count }
        var totalBytes: Int { inner.totalBytes }
        var peakCost: Int { inner.peakCost }
        var pinnedBytes: Int { inner.pinnedBytes }
        var peakPinnedBytes: Int { inner.peakPinnedBytes }
        var pinRefusals: Int { inner.pinRefusals }
        var evictions: Int { inner.evictions }
        var notAdmitted: Int { inner.notAdmitted }
        var expirations: Int { inner.expirations }
        func isPinned(_ url: String) -> Bool { inner.isPinned(url) }
        func contains(_ url: String, at now: Int64) -> Bool { inner.contains(url, at: now) }
        func value(forKey url: String, at now: Int64) throws -> [UInt8]? {
            usleep(microseconds)
            return inner.value(forKey: url, at: now)
        }
        func insert(_ bytes: [UInt8], forKey url: String, at now: Int64, pixels: UInt32) throws -> Bool {
            inner.insert(bytes, forKey: url, at: now, pixels: pixels)
        }
        func remove(_ url: String) throws { inner.remove(url) }
        func pin(_ url: String, at now: Int64) throws -> Bool { inner.pin(url, at: now) }
        func unpin(_ url: String, at now: Int64) throws { inner.unpin(url, at: now) }
        func sweep(limit: Int, trimRatio: Double, at now: Int64) throws {
            inner.sweep(limit: limit, trimRatio: trimRatio, at: now)
        }
        func trim(toCost target: Int) throws { inner.trim(toCost: target) }
        func checkInvariants() throws { inner.checkInvariants() }
    }

    /// Serves every URL's bytes at once.
    struct InstantDownloader: ImageDownloading {
        func download(_ url: String) async throws -> [UInt8] { Array(url.utf8) }
    }

    @Test func aMemoryHitIsAnsweredWhileTheDiskIsBusy() async throws {
        // Given a pipeline whose disk takes 1 s over each lookup, holding photo A on disk only,
        // and photo B in memory
        let disk = SlowTier(microseconds: 1_000_000)
        _ = try disk.insert(Array("a".utf8), forKey: "a", at: 0, pixels: 0)
        let client = ClientConfiguration(
            name: "slow-disk", memory: TierConfiguration(policy: .lru, capacity: 1 << 20),
            disk: TierConfiguration(policy: .lru, capacity: 1 << 20), memoryCost: .encoded)
        let pipeline = try ImagePipeline(client: client, diskTier: disk, downloader: InstantDownloader())
        let b = try await pipeline.image(for: "b", at: 1)
        #expect(b.source == .network)

        // When A is asked for (its lookup takes the disk's second) and B right after
        let clock = ContinuousClock()
        let diskLookup = Task { try await pipeline.image(for: "a", at: 2) }
        try await Task.sleep(for: .milliseconds(100))
        let asked = clock.now
        let memoryHit = try await pipeline.image(for: "b", at: 3)
        let waited = clock.now - asked

        // Then B comes from memory at once, not after A's disk lookup
        #expect(memoryHit.source == .memory)
        #expect(waited < .milliseconds(300), "a memory hit waited \(waited) for the disk")
        #expect(try await diskLookup.value.source == .disk)
    }
}
