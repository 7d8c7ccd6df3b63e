import ClientModel
import Testing

@testable import CacheLab

@Suite("Delayed hits: a request waits for a download already under way")
struct DelayedHitTests {
    // Wi-Fi: 20 ms round trip, 50 Mbit/s: 10,000 bytes download in 20 ms + 1.6 ms.
    static let download = 21_600

    static func client(memory: Int? = 1 << 20, disk: Int? = 1 << 20) -> ClientConfiguration {
        ClientConfiguration(
            name: "t", memory: memory.map { TierConfiguration(policy: .lru, capacity: $0) },
            disk: disk.map { TierConfiguration(policy: .lru, capacity: $0) }, network: .wifi)
    }

    @Test func aRequestDuringTheDownloadWaitsForItsRestAndDownloadsNothing() {
        // Given a photo requested at 0, again 5 ms later, and again after the download ended
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10_000)
        trace.append(time: 5, key: 1, size: 10_000)
        trace.append(time: 30, key: 1, size: 10_000)
        let result = Replay.simulate(trace, client: Self.client(), outcomes: true)
        // Then the second waited for the first's download; the third hit memory
        #expect(result.outcomes == [.network, .delayed, .memory])
        #expect(result.delayedHits == 1 && result.hits == 1 && result.misses == 1)
        #expect(result.bytesDownloaded == 10_000 && result.bytesSaved == 20_000)
        // And it waited the 16.6 ms left
        let waited = Self.download - 5_000
        let total = Self.download + waited + 50
        #expect(result.client?.delayedLatencyShare == Double(waited) / Double(total))
        #expect(result.latency?.mean == Double(total) / 3 / 1000)
    }

    @Test func requestsAtTheSameInstantShareOneDownload() {
        var trace = Trace(name: "t")
        for _ in 0..<5 { trace.append(time: 7, key: 9, size: 10_000) }
        let result = Replay.simulate(trace, client: Self.client(), outcomes: true)
        #expect(result.outcomes == [.network] + Array(repeating: .delayed, count: 4))
        #expect(result.bytesDownloaded == 10_000)
    }

    @Test func aRequestJustAfterTheDownloadEndedIsAHit() {
        // 21.6 ms: ends at 21,600 µs; a request at 22 ms comes after it
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10_000)
        trace.append(time: 21, key: 1, size: 10_000)
        trace.append(time: 22, key: 1, size: 10_000)
        let result = Replay.simulate(trace, client: Self.client(), outcomes: true)
        #expect(result.outcomes == [.network, .delayed, .memory])
        // The timing slack: how far each request was from the download's end
        #expect(result.timingSlack == [UInt32.max, 600, 400])
    }

    @Test func aSlowerNetworkMakesMoreDelayedHits() {
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10_000)
        trace.append(time: 100, key: 1, size: 10_000)
        var client = Self.client()
        #expect(Replay.simulate(trace, client: client, outcomes: true).outcomes == [.network, .memory])
        // 3G: 200 ms round trip
        client.network = .slow3g
        #expect(Replay.simulate(trace, client: client, outcomes: true).outcomes == [.network, .delayed])
    }

    @Test func aDiskHitDuringTheDownloadIsDelayedToo() {
        // Given a memory tier too small for the photo: the download is stored on disk only
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10_000)
        trace.append(time: 5, key: 1, size: 10_000)
        let result = Replay.simulate(trace, client: Self.client(memory: 5_000), outcomes: true)
        #expect(result.outcomes == [.network, .delayed])
        #expect(result.memoryHits == 0 && result.diskHits == 0 && result.delayedHits == 1)
    }

    @Test func eachDownloadIsStoredWhenItEnds() {
        // Given a memory tier of one photo and no disk, 1 and 2 downloading at once, and 1 asked
        // for again during its download and after both ended
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10_000)
        trace.append(time: 1, key: 2, size: 10_000)
        trace.append(time: 2, key: 1, size: 10_000)
        trace.append(time: 30, key: 1, size: 10_000)
        let result = Replay.simulate(trace, client: Self.client(memory: 10_000, disk: nil), outcomes: true)
        // Then the third waits for 1's download; 2's, ending 1 ms later, evicts 1, so the fourth
        // downloads it again, as the pipeline does
        #expect(result.outcomes == [.network, .network, .delayed, .network])
        #expect(result.bytesDownloaded == 30_000)
    }

    @Test func theDownloadsUnderWayEndAtARelaunch() {
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10_000)
        trace.appendEvent(.relaunch, time: 1)
        trace.append(time: 2, key: 1, size: 10_000)
        let result = Replay.simulate(trace, client: Self.client(), outcomes: true)
        // Then the download, ended at the relaunch (where a live replay waits for every answer),
        // was stored on disk, and the photo is read from it
        #expect(result.outcomes == [.network, .disk])
        #expect(result.timingSlack == [UInt32.max, 19_600])
    }

    @Test func aSingleTierRunCountsAsLibCacheSimDoes() {
        // A single cache has no downloads: the second request is a hit, as in libCacheSim
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10_000)
        trace.append(time: 0, key: 1, size: 10_000)
        let result = Replay.simulate(trace, RunConfiguration(policy: .lru, capacity: 1 << 20))
        #expect(result.hits == 1 && result.delayedHits == 0)
    }
}

@Suite("Live outcomes against the simulator's, delayed hits and timing")
struct OutcomeAgreementTests {
    static func simulated(_ outcomes: [RequestOutcome], slack: [UInt32]) -> RunResult {
        var result = RunResult(trace: "t", client: DelayedHitTests.client())
        result.updateClient { client in
            client.outcomes = outcomes
            client.timingSlack = slack
        }
        return result
    }

    @Test func unpacedEveryOutcomeMustBeEqualDelayedHitsToo() {
        let simulated = Self.simulated([.network, .memory, .delayed, .disk, .delayed], slack: [.max, 0, 1, 1, 1])
        let agreement = OutcomeAgreement(
            live: [.network, .delayed, .memory, .delayed, .delayed], simulated: simulated, margin: 0)
        #expect(agreement.agreeing == 2 && agreement.undecided == 0 && agreement.delayedBoth == 1)
        #expect(agreement.firstDisagreements.map(\.position) == [1, 2, 3])
    }

    @Test func pacedOnlyTheRequestsWithinTheMarginAreLeftToTiming() {
        let simulated = Self.simulated([.network, .delayed, .delayed, .memory], slack: [.max, 30_000, 2_000, 40_000])
        let agreement = OutcomeAgreement(
            live: [.network, .delayed, .memory, .delayed], simulated: simulated, margin: 25_000)
        // The third is within 25 ms of the download's end: either will do; the fourth is not
        #expect(agreement.agreeing == 3 && agreement.undecided == 1 && agreement.delayedBoth == 1)
        #expect(agreement.firstDisagreements.map(\.position) == [3])
        #expect(
            agreement.firstDisagreements.first?.description
                == "request 4: live delayed, simulated memory, 40.0 ms from its download's end")
        #expect(!agreement.isComplete)
    }

    @Test func hitsMissesAndFailuresMustBeEqualWhateverTheTiming() {
        let simulated = Self.simulated([.memory, .network, .disk], slack: [0, 0, 0])
        let agreement = OutcomeAgreement(live: [.disk, .failed, .disk], simulated: simulated, margin: 25_000)
        #expect(agreement.agreeing == 1 && agreement.firstDisagreements.map(\.position) == [0, 1])
    }
}
