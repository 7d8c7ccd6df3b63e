import ClientModel
import Testing

@testable import CacheLab

@Suite("Prefetches: the simulated client runs them as ImagePrefetcher does")
struct PrefetchTests {
    // Wi-Fi: 10,000 bytes download in 21.6 ms.
    static let client = ClientConfiguration(
        name: "t", memory: TierConfiguration(policy: .lru, capacity: 1 << 20),
        disk: TierConfiguration(policy: .lru, capacity: 1 << 20), network: .wifi)

    static func prefetch(_ key: UInt64, at time: Int64, in trace: inout Trace) {
        trace.appendEvent(.prefetch, time: time, key: key)
        trace.append(time: time, key: key, size: 10_000)
    }

    @Test func atMostTwoRunAtOnceAndTheThirdStartsWhenOneLands() {
        // Given three prefetches asked at once, and a row asking for the third's photo at 5 ms
        var trace = Trace(name: "t")
        for key: UInt64 in 1...3 { Self.prefetch(key, at: 0, in: &trace) }
        trace.append(time: 5, key: 3, size: 10_000)
        #expect(trace.checkInvariants().isEmpty)
        let result = Replay.simulate(trace, client: Self.client, outcomes: true)
        // Then the third waited for a slot: the row downloaded its photo, and the prefetch,
        // started when the first two landed at 21.6 ms, joined that download
        #expect(result.outcomes == [.network, .network, .delayed, .network])
        #expect(result.requests == 4 && result.misses == 3 && result.delayedHits == 1)
        #expect(result.bytesDownloaded == 30_000)
        // And a prefetch's latency is no row's: only the row's request is timed
        #expect(result.latency?.mean == Double(21_600) / 1000)
    }

    @Test func aStopDropsAWaitingPrefetchAndCancelsARunningOne() {
        // Given three prefetches; the waiting third stopped at 1 ms, the running first at 2 ms
        var trace = Trace(name: "t")
        for key: UInt64 in 1...3 { Self.prefetch(key, at: 0, in: &trace) }
        trace.appendEvent(.stopPrefetch, time: 1, key: 3)
        trace.appendEvent(.stopPrefetch, time: 2, key: 1)
        // And rows asking for the first two photos well after their downloads would have ended
        trace.append(time: 50, key: 1, size: 10_000)
        trace.append(time: 50, key: 2, size: 10_000)
        let result = Replay.simulate(trace, client: Self.client, outcomes: true)
        // Then the third was never made; the first's download stored nothing, so its row
        // downloaded it again; the second's prefetch served its row from memory
        #expect(result.outcomes == [.network, .network, .dropped, .network, .memory])
        #expect(result.requests == 4 && result.client?.droppedPrefetches == 1)
        // And the cancelled download downloaded nothing
        #expect(result.bytesDownloaded == 20_000)
    }

    @Test func aRowThatJoinedAPrefetchKeepsItsDownload() {
        // Given a prefetch, its row asking 5 ms later, and the prefetch stopped at 10 ms
        var trace = Trace(name: "t")
        Self.prefetch(1, at: 0, in: &trace)
        trace.append(time: 5, key: 1, size: 10_000)
        trace.appendEvent(.stopPrefetch, time: 10, key: 1)
        trace.append(time: 50, key: 1, size: 10_000)
        let result = Replay.simulate(trace, client: Self.client, outcomes: true)
        // Then the download went on for the row and stored the photo
        #expect(result.outcomes == [.network, .delayed, .memory])
        #expect(result.bytesDownloaded == 10_000)
    }

    @Test func aPhotoAlreadyBeingPrefetchedIsNotAskedAgain() {
        var trace = Trace(name: "t")
        Self.prefetch(1, at: 0, in: &trace)
        Self.prefetch(1, at: 1, in: &trace)
        let result = Replay.simulate(trace, client: Self.client, outcomes: true)
        #expect(result.outcomes == [.network, .dropped])
        #expect(result.requests == 1 && result.client?.droppedPrefetches == 1)
        // And the table says so, beside the requests it leaves out
        #expect(Report.table([result]).contains("prefetches dropped"))
        var plain = Trace(name: "plain")
        plain.append(time: 0, key: 1, size: 10_000)
        #expect(!Report.table([Replay.simulate(plain, client: Self.client)]).contains("prefetches dropped"))
    }

    @Test func aPrefetchATierAnswersHoldsNoSlot() {
        // Given two photos in memory, then three prefetches: the two held, and a new one
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 10_000)
        trace.append(time: 0, key: 2, size: 10_000)
        for key: UInt64 in 1...3 { Self.prefetch(key, at: 100, in: &trace) }
        trace.append(time: 101, key: 3, size: 10_000)
        let result = Replay.simulate(trace, client: Self.client, outcomes: true)
        // Then the third started at once: the row joined its download
        #expect(result.outcomes == [.network, .network, .memory, .memory, .network, .delayed])
    }

    @Test func aPrefetchingListAsksItsPrefetcherAndStopsWhatLeavesTheBand() throws {
        // Given the flinger's first day as a prefetching list
        var scenario = try #require(ScrollScenario.named("flinger"))
        scenario.list = .prefetching
        scenario.days = 1
        let trace = scenario.makeTrace()
        // Then each prefetch names its own request, and some were stopped
        #expect(trace.checkInvariants().isEmpty)
        let prefetches = trace.events.filter { $0.kind == .prefetch }
        let stops = trace.events.filter { $0.kind == .stopPrefetch }
        #expect(prefetches.count > 100 && !stops.isEmpty)
        // And a stop names a photo that was prefetched before it
        let prefetched = Set(prefetches.map(\.key))
        #expect(stops.allSatisfy { prefetched.contains($0.key) })
        // And the lazy stack, the committed scenarios' list, has no prefetcher
        scenario.list = .lazyStack
        #expect(!scenario.makeTrace().events.contains { $0.kind.isPrefetcher })
    }
}
