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

    @Test func latencyFollowsTheDocumentedModel() {
        // Two requests on wifi (20 ms round trip, 50 Mbit/s) with a memory tier:
        // a miss of 50,000 bytes = 20,000 + 50,000 × 8 / 50 = 28,000 µs; a hit = 50 µs.
        var trace = Trace(name: "two")
        trace.append(time: 0, key: 7, size: 50_000)
        trace.append(time: 1, key: 7, size: 50_000)
        let result = Replay.simulate(
            trace, RunConfiguration(policy: .lru, capacity: 100_000, network: .wifi, tier: .memory))
        #expect(abs(result.latency.p99 - 28.0) < 0.03)
        #expect(abs(result.latency.p50 - 0.05) < 0.001)
        #expect(abs(result.latency.mean - 14.025) < 0.02)
    }

    @Test(arguments: PolicyKind.allCases)
    func theSameTraceAndConfigurationGiveTheSameCounts(kind: PolicyKind) {
        let trace = RecipeScrollScenario(seed: 7).makeTrace()
        let configuration = RunConfiguration(policy: kind, capacity: 300_000)
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

@Suite("The built-in recipe-list scenario")
struct RecipeScrollScenarioTests {
    @Test func theSameSeedGivesTheSameTraceAndAnotherSeedAnother() {
        #expect(RecipeScrollScenario(seed: 3).makeTrace() == RecipeScrollScenario(seed: 3).makeTrace())
        #expect(RecipeScrollScenario(seed: 3).makeTrace() != RecipeScrollScenario(seed: 4).makeTrace())
    }

    @Test func photosAreKeyedByTheirWholeURLWithRealisticSizes() throws {
        let trace = RecipeScrollScenario(seed: 1).makeTrace()
        let names = try #require(trace.keyNames)
        #expect(Set(names).count == names.count)
        for position in 0..<trace.count {
            let url = names[Int(trace.keys[position])]
            let size = trace.sizes[position]
            if url.hasSuffix("/small.jpg") {
                #expect((8_000...14_000).contains(size))
            } else {
                #expect(url.hasSuffix("/large.jpg") && (60_000...140_000).contains(size))
            }
        }
        // Each session starts after a relaunch, except the first; time never goes backwards.
        #expect(trace.events.allSatisfy { $0.kind == .relaunch })
        #expect(trace.events.count >= 10)
        #expect(zip(trace.times, trace.times.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func aSessionStartsByRequestingTheRowsInTheFirstWindow() {
        let scenario = RecipeScrollScenario(seed: 1)
        let trace = scenario.makeTrace()
        let catalog = RecipeCatalog(count: scenario.recipes, seed: scenario.seed)
        let window = scenario.visibleRows + scenario.prefetchRows
        let firstURLs = (0..<window).map { trace.keyNames![Int(trace.keys[$0])] }
        #expect(firstURLs == catalog.recipes.prefix(window).map(\.small.url))
    }

    @Test func theCatalogHasTheAPIShape() {
        let catalog = RecipeCatalog(seed: 1)
        #expect(catalog.recipes.count == 63)
        for recipe in catalog.recipes {
            #expect(!recipe.small.url.contains(recipe.uuid))  // the photo folder is not the recipe uuid
            #expect(recipe.small.url.dropLast("small.jpg".count) == recipe.large.url.dropLast("large.jpg".count))
        }
    }
}
