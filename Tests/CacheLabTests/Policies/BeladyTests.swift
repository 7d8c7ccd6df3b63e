import CacheEngine
import CacheLabTestSupport
import Testing

@testable import CacheLab

/// Belady's optimum: hand-worked sequences, and no policy ever beats it in unit mode.
@Suite("Belady's optimum")
struct BeladyTests {
    @Test func evictsTheEntryNextUsedFarthestAway() {
        // Given capacity 2 and keys 1 2 3 1 2 3 (next uses 4 5 6 never never never)
        let cache = Fixtures.makeCache(.belady, capacity: 2, sizeMode: .unit)
        let hits = cache.replay([1, 2, 3, 1, 2, 3])
        // Then 3 evicts 2 (next use 5, later than 1's 4); 1 hits; 2 evicts 1 (never again, later
        // than 3's 6); 3 hits
        #expect(hits == [false, false, false, true, false, true])
        #expect(Set(cache.storedKeys) == [2, 3])
    }

    @Test func anEntryNeverUsedAgainGoesFirst() {
        let cache = Fixtures.makeCache(.belady, capacity: 2, sizeMode: .unit)
        // 2 is never requested again, so 3 takes its place and 1 stays for its hit
        #expect(cache.replay([1, 2, 3, 1]) == [false, false, false, true])
        #expect(Set(cache.storedKeys) == [1, 3])
    }

    @Test func theTextbookReferenceStringFaultsNineTimesInThreeFrames() {
        // Silberschatz, Galvin and Gagne's reference string: OPT has 9 page faults with 3
        // frames (LRU 12, FIFO 15).
        let keys: [UInt64] = [7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1]
        let belady = Fixtures.makeCache(.belady, capacity: 3, sizeMode: .unit)
        #expect(belady.replay(keys).count { !$0 } == 9)
        let lru = Fixtures.makeCache(.lru, capacity: 3, sizeMode: .unit)
        #expect(lru.replay(keys).count { !$0 } == 12)
        let fifo = Fixtures.makeCache(.fifo, capacity: 3, sizeMode: .unit)
        #expect(fifo.replay(keys).count { !$0 } == 15)
    }

    @Test func aHitRefilesTheEntryUnderItsNewNextUse() {
        // Given 1 and 2 cached, 1 next used at 3
        let cache = Fixtures.makeCache(.belady, capacity: 2, sizeMode: .unit)
        // When 1 is hit at 3 and never used again, then 4 evicts 1, not 2 (used again at 5)
        #expect(cache.replay([1, 2, 1, 4, 2]) == [false, false, true, false, true])
    }

    @Test func theReplayLoopFeedsTheFutureAndARelaunchEmptiesAMemoryTier() {
        // Given 1 2 3 1 2 3 with a relaunch before the second 1
        var trace = Trace(name: "relaunch")
        for key: UInt64 in [1, 2, 3] { trace.append(time: 0, key: key, size: 1) }
        trace.appendEvent(.relaunch, time: 1)
        for key: UInt64 in [1, 2, 3] { trace.append(time: 2, key: key, size: 1) }
        // Then on disk Belady keeps 1 and 3 across it (2 hits); in memory nothing survives
        let disk = Replay.simulate(trace, RunConfiguration(policy: .belady, capacity: 2, sizeMode: .unit))
        #expect(disk.hits == 2)
        let memory = Replay.simulate(
            trace, RunConfiguration(policy: .belady, capacity: 2, sizeMode: .unit, tier: .memory))
        #expect(memory.hits == 0 && memory.relaunches == 1)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func noPolicyHitsMoreThanBeladyInUnitMode(seed: UInt64) {
        // Given Zipf traces of several skews and capacities of several sizes
        let trace = SyntheticTrace.zipf(
            requests: 5_000, objects: 400, alpha: 0.5 + Double(seed) * 0.1, seed: seed)
        for capacity in [1, 7, 40, 150] {
            let optimum = Replay.simulate(
                trace, RunConfiguration(policy: .belady, capacity: capacity, sizeMode: .unit), latency: false)
            // Then Belady hits at least as often as every policy that stores every miss
            for kind in PolicyKind.allCases where !kind.mayDeclineNewEntries {
                let result = Replay.simulate(
                    trace, RunConfiguration(policy: kind, capacity: capacity, sizeMode: .unit), latency: false)
                #expect(result.hits <= optimum.hits, "\(kind.rawValue) at \(capacity) beat belady")
            }
        }
    }

    @Test func theRegistryKnowsBeladyNeedsTheFuture() {
        for kind in PolicyKind.allCases {
            #expect(kind.needsFuture == kind.withOrder(NeedsFuture()), "\(kind.rawValue)")
        }
        #expect(PolicyKind.online == PolicyKind.allCases.filter { $0 != .belady && $0 != .beladysize })
        #expect(throws: PolicyError.needsFuture(.belady, place: "a test")) {
            try PolicyKind.belady.requireOnline(for: "a test")
        }
    }

    private struct NeedsFuture: PolicyBody {
        func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> Bool { Policy.needsFuture }
    }
}

/// libCacheSim 0.3.5's Belady miss counts on its own oracleGeneral trace (`scripts/conformance
/// --policies belady` also checks the csv and txt encodings and generated traces).
@Suite(.enabled(if: SharedFixtures.tracesAvailable, "needs ../shared/traces"))
struct BeladyGoldenTests {
    static let rows: [(SizeMode, Int, Int)] = [
        // size mode, capacity (1%, 5%, 10% of the working set), libCacheSim's misses of 113,872
        (.bytes, 20_297_697, 91_152), (.bytes, 101_488_486, 82_379), (.bytes, 202_976_972, 74_162),
        (.unit, 489, 90_263), (.unit, 2_448, 80_078), (.unit, 4_897, 71_620),
    ]

    @Test func missCountsMatchLibCacheSimInBothSizeModes() throws {
        let path = try #require(SharedFixtures.trace("cloudPhysicsIO.oracleGeneral.bin"))
        let trace = try TraceReader.read(path: path)
        for (mode, capacity, misses) in Self.rows {
            let result = Replay.simulate(
                trace, RunConfiguration(policy: .belady, capacity: capacity, sizeMode: mode), latency: false)
            #expect(result.requests == 113_872)
            #expect(result.misses == misses, "\(mode.rawValue) \(capacity)")
        }
    }
}
