import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

@Suite("Simulated replay")
struct ReplayTests {
    /// 1, 2, 1, 3, 1 with sizes 10, 20, 10, 30, 10; then a relaunch; then 1 again.
    static func smallTrace() -> Trace {
        var trace = Trace(name: "small")
        for (time, key, size) in [(0, 1, 10), (1, 2, 20), (2, 1, 10), (3, 3, 30), (4, 1, 10)] {
            trace.append(time: Int64(time), key: UInt64(key), size: size)
        }
        trace.appendEvent(.relaunch, time: 100)
        trace.append(time: 100, key: 1, size: 10)
        return trace
    }

    @Test func countsHitsBytesAndEvictions() {
        let result = Replay.simulate(Self.smallTrace(), RunConfiguration(policy: .lru, capacity: 40))
        // 1 miss, 2 miss, 1 hit, 3 miss (evicts 2), 1 hit, relaunch (disk keeps), 1 hit
        #expect(result.requests == 6)
        #expect(result.hits == 3)
        #expect(result.misses == 3)
        #expect(result.bytesRequested == 90)
        #expect(result.bytesHit == 30)
        #expect(result.bytesDownloaded == 60)
        #expect(result.bytesSaved == 30)
        #expect(result.evictions == 1)
        #expect(result.relaunches == 1)
        #expect(result.hitRatio == 0.5)
        #expect(result.byteHitRatio == 30.0 / 90.0)
    }

    @Test func aRelaunchEmptiesAMemoryTierButNotADiskTier() {
        let memory = Replay.simulate(Self.smallTrace(), RunConfiguration(policy: .lru, capacity: 40, tier: .memory))
        let disk = Replay.simulate(Self.smallTrace(), RunConfiguration(policy: .lru, capacity: 40, tier: .disk))
        #expect(memory.hits == 2)
        #expect(disk.hits == 3)
    }

    @Test func latencyFollowsTheDocumentedModel() throws {
        // Two requests on wifi (20 ms round trip, 50 Mbit/s) with a memory tier:
        // a miss of 50,000 bytes = 20,000 + 50,000 × 8 / 50 = 28,000 µs; a hit = 50 µs.
        var trace = Trace(name: "two")
        trace.append(time: 0, key: 7, size: 50_000)
        trace.append(time: 1, key: 7, size: 50_000)
        let result = Replay.simulate(
            trace, RunConfiguration(policy: .lru, capacity: 100_000, network: .wifi, tier: .memory))
        let latency = try #require(result.latency, "the simulator models latency unless told not to")
        #expect(abs(latency.p99 - 28.0) < 0.03)
        #expect(abs(latency.p50 - 0.05) < 0.001)
        #expect(abs(latency.mean - 14.025) < 0.02)
    }

    @Test func aRunCarriesOnlyThePartsThatApplyToIt() {
        var trace = Trace(name: "parts")
        trace.append(time: 0, key: 1, size: 10_000)
        trace.append(time: 5, key: 1, size: 10_000)
        // A single tier: no client part, no outcomes unless asked; latency unless turned off
        let single = Replay.simulate(trace, RunConfiguration(policy: .lru, capacity: 100_000))
        #expect(single.client == nil && single.outcomes == nil && single.timingSlack == nil)
        #expect(single.latency != nil && single.live == nil && single.optimalHits == nil)
        let unmodelled = Replay.simulate(trace, RunConfiguration(policy: .lru, capacity: 100_000), latency: false)
        #expect(unmodelled.latency == nil && unmodelled.hits == single.hits)
        // A client: its part, with its configuration read through it; outcomes only when asked
        let client = ClientConfiguration(
            name: "c", memory: TierConfiguration(policy: .lru, capacity: 1 << 20), disk: nil, network: .wifi)
        let plain = Replay.simulate(trace, client: client)
        #expect(plain.client?.configuration == client && plain.client?.name == "c")
        #expect(plain.client?.delayedHits == 1 && plain.delayedHits == 1)
        #expect(plain.outcomes == nil && plain.timingSlack == nil)
        let asked = Replay.simulate(trace, client: client, outcomes: true)
        #expect(asked.outcomes == [.network, .delayed] && asked.timingSlack?.count == 2)
    }

    @Test(arguments: PolicyKind.allCases)
    func theSameTraceAndConfigurationGiveTheSameCounts(kind: PolicyKind) {
        let trace = ScrollScenario.named("daily-reader", seed: 7)!.makeTrace()
        // W-TinyLFU and LIRS store only what fits 1 % of the capacity: small photos need 5 MB.
        let onePercent = kind == .wtinylfu || kind == .lirs
        let configuration = RunConfiguration(policy: kind, capacity: onePercent ? 5_000_000 : 300_000)
        let first = Replay.simulate(trace, configuration)
        let second = Replay.simulate(trace, configuration)
        #expect(first == second)
        #expect(first.hits + first.misses == trace.count)
        #expect(first.hits > 0)
    }

    @Test func eventsAtTheEndAndBackToBackAreApplied() {
        var trace = Trace(name: "events")
        trace.appendEvent(.background, time: 0)
        trace.append(time: 0, key: 1, size: 1)
        trace.appendEvent(.relaunch, time: 1)
        trace.appendEvent(.relaunch, time: 2)
        trace.append(time: 3, key: 1, size: 1)
        trace.appendEvent(.relaunch, time: 4)
        let result = Replay.simulate(trace, RunConfiguration(policy: .fifo, capacity: 10, tier: .memory))
        #expect(result.relaunches == 3)
        #expect(result.hits == 0)
        #expect(result.requests == 2)
    }

    @Test func anEmptyTraceGivesZeroes() {
        let result = Replay.simulate(Trace(name: "empty"), RunConfiguration(policy: .lfu, capacity: 10))
        #expect(result.requests == 0)
        #expect(result.hitRatio == 0)
    }
}

@Suite("The generated catalog")
struct CatalogTimelineTests {
    @Test func theCatalogHasTheAPIShape() {
        let catalog = CatalogTimeline(recipes: 63, days: 1, seed: 1)
        let snapshot = catalog.snapshot(onDay: 0)
        #expect(snapshot.order.count == 63)
        for recipe in snapshot.order {
            let small = catalog.photoURLs[Int(snapshot.smallPhoto[Int(recipe)])]
            let large = catalog.photoURLs[Int(snapshot.largePhoto[Int(recipe)])]
            // One photo folder per recipe, holding small.jpg and large.jpg: key by the whole URL.
            #expect(small.hasSuffix("/small.jpg") && large.hasSuffix("/large.jpg"))
            #expect(small.dropLast("small.jpg".count) == large.dropLast("large.jpg".count))
            #expect((8_000...14_000).contains(catalog.photoSizes[Int(snapshot.smallPhoto[Int(recipe)])]))
            #expect((60_000...140_000).contains(catalog.photoSizes[Int(snapshot.largePhoto[Int(recipe)])]))
        }
        #expect(Set(catalog.photoURLs).count == catalog.photoURLs.count)
    }
}
