import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

/// Favourites in the simulator's client: `favourite` and `unfavourite` events pin and unpin a
/// photo in both tiers, as `ImagePipeline` does (the live corpus tests check they agree).
@Suite("Two-tier client replay: favourites")
struct ClientFavouriteTests {
    static let hour: Int64 = 3_600_000

    static func client(memory: Int, disk: Int, memoryPins: Int? = nil, diskPins: Int? = nil) -> ClientConfiguration {
        ClientConfiguration(
            name: "lru", memory: TierConfiguration(policy: .lru, capacity: memory, pinBudget: memoryPins),
            disk: TierConfiguration(policy: .lru, capacity: disk, pinBudget: diskPins))
    }

    // Requests come a second apart or more: each download is over before the next request.

    @Test func aFavouriteSurvivesPressureInBothTiersAndARelaunchOnDisk() {
        // Given key 1 favourited after its first request, then ten other keys through tiers of
        // two (memory) and three (disk) entries
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10)
        trace.appendEvent(.favourite, time: 1_000, key: 1)
        for key in 2...11 { trace.append(time: 2_000, key: UInt64(key), size: 10) }
        trace.append(time: 3_000, key: 1, size: 10)
        trace.appendEvent(.relaunch, time: Self.hour)
        trace.append(time: Self.hour, key: 1, size: 10)
        let result = Replay.simulate(trace, client: Self.client(memory: 20, disk: 30), outcomes: true)

        // Then 1 is a memory hit after the pressure, a disk hit after the relaunch, and the
        // capacities were never charged for it
        #expect(result.outcomes?.suffix(2) == [.memory, .disk])
        #expect(result.client?.favouriteEvents == 1)
        #expect(result.client?.pins.peakMemoryBytes == 10 && result.client?.pins.peakDiskBytes == 10)
        #expect(result.client?.pins.refusals == 0)
    }

    @Test func aFavouriteNotYetStoredIsPinnedWhenItArrives() {
        // Given key 1 favourited before anything is stored (its photo not downloaded yet)
        var trace = Trace(name: "t")
        trace.appendEvent(.favourite, time: 0, key: 1)
        trace.append(time: 1_000, key: 1, size: 10)
        for key in 2...11 { trace.append(time: 2_000, key: UInt64(key), size: 10) }
        trace.append(time: 3_000, key: 1, size: 10)
        let result = Replay.simulate(trace, client: Self.client(memory: 20, disk: 30), outcomes: true)

        // Then its download was pinned in both tiers: a memory hit after the pressure
        #expect(result.outcomes?.last == .memory)
        #expect(result.client?.pins.memoryBytes == 10 && result.client?.pins.diskBytes == 10)
    }

    @Test func anUnfavouriteHandsThePhotoBackToTheEngines() {
        // Given 1 favourited, then unfavourited, then pressure
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10)
        trace.appendEvent(.favourite, time: 1_000, key: 1)
        trace.appendEvent(.unfavourite, time: 2_000, key: 1)
        for key in 2...11 { trace.append(time: 3_000, key: UInt64(key), size: 10) }
        trace.append(time: 4_000, key: 1, size: 10)
        let result = Replay.simulate(trace, client: Self.client(memory: 20, disk: 30), outcomes: true)

        // Then it was evicted like any other photo, and no bytes stay pinned
        #expect(result.outcomes?.last == .network)
        #expect(result.client?.favouriteEvents == 2)
        #expect(result.client?.pins.memoryBytes == 0 && result.client?.pins.diskBytes == 0)
        #expect(result.client?.pins.peakMemoryBytes == 10)
    }

    @Test func aPinOverTheBudgetIsRefusedAndTheImageCachedAsUsual() {
        // Given pin budgets of 15 bytes and two favourites of 10
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10)
        trace.append(time: 0, key: 2, size: 10)
        trace.appendEvent(.favourite, time: 1_000, key: 1)
        trace.appendEvent(.favourite, time: 1_000, key: 2)
        for key in 3...12 { trace.append(time: 2_000, key: UInt64(key), size: 10) }
        trace.append(time: 3_000, key: 1, size: 10)
        trace.append(time: 3_000, key: 2, size: 10)
        let client = Self.client(memory: 20, disk: 30, memoryPins: 15, diskPins: 15)
        let result = Replay.simulate(trace, client: client, outcomes: true)

        // Then the second pin is refused in both tiers, and again when its download is stored in
        // each; only the first photo survived the pressure
        #expect(result.client?.pins.refusals == 4)
        #expect(result.client?.pins.memoryBytes == 10 && result.client?.pins.diskBytes == 10)
        #expect(result.outcomes?.suffix(2) == [.memory, .network])
    }

    @Test func anExpiredPhotoIsNotPinnedNorKept() {
        // Given photos that live 10 ms on disk and in memory, key 1 favourited after it expired
        let client = ClientConfiguration(
            name: "ttl", memory: TierConfiguration(policy: .lru, capacity: 100, ttl: 10, ttlMode: .sliding),
            disk: TierConfiguration(policy: .lru, capacity: 100, ttl: 10, ttlMode: .sliding))
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10)
        trace.appendEvent(.favourite, time: 50, key: 1)
        trace.append(time: 60, key: 1, size: 10)
        trace.append(time: 100, key: 1, size: 10)
        let result = Replay.simulate(trace, client: client, outcomes: true)

        // Then the favourite pinned nothing stale: the next request downloads the photo again,
        // and that download is pinned (a memory hit 40 ms later, past the lifetime)
        #expect(result.outcomes == [.network, .network, .memory])
        #expect(result.client?.pins.peakMemoryBytes == 10 && result.client?.pins.refusals == 0)
    }

    @Test func aSingleCacheIgnoresFavourites() {
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10)
        trace.appendEvent(.favourite, time: 1, key: 1)
        for key in 2...11 { trace.append(time: 2, key: UInt64(key), size: 10) }
        trace.append(time: 3, key: 1, size: 10)
        let result = Replay.simulate(trace, RunConfiguration(policy: .lru, capacity: 30))
        #expect(result.hits == 0)
    }

    @Test func pinnedEntriesKeepTheirSumsAndPeak() {
        var pins = PinnedEntries<String, Void>(budget: 25)
        let first = pins.admits(cost: 10)
        pins.set("a", (), cost: 10, size: 10)
        let second = pins.admits(cost: 15)
        pins.set("b", (), cost: 15, size: 15)
        let third = pins.admits(cost: 1)
        #expect(first && second && !third)
        #expect(pins.refusals == 1)
        pins.remove("a")
        #expect(pins.bytes == 15 && pins.cost == 15 && pins.peakBytes == 25)
        pins.removeAll()
        #expect(pins.count == 0 && pins.bytes == 0 && pins.peakBytes == 25)
        pins.checkInvariants("test")
    }
}
