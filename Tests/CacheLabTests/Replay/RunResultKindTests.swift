import CacheEngine
import CacheLab
import ClientModel
import Foundation
import Testing

@Suite("A run's result says what kind of run it came from")
struct RunResultKindTests {
    static var trace: Trace {
        var trace = Trace(name: "t")
        for (time, key) in [1, 2, 1, 3, 1, 2, 4, 1].enumerated() {
            trace.append(time: Int64(time) * 1_000, key: UInt64(key), size: 1_000)
        }
        return trace
    }

    static let client = ClientConfiguration(
        name: "two-tier", memory: TierConfiguration(policy: .lru, capacity: 2_000),
        disk: TierConfiguration(policy: .lru, capacity: 3_000), network: .wifi)

    @Test func aSingleTierRunCarriesItsEntriesAndBookkeepingAndNoClientPart() throws {
        let result = Replay.simulate(Self.trace, RunConfiguration(policy: .lru, capacity: 2_000))
        guard case .tier(let tier) = result.kind else {
            Issue.record("a single tier's run of kind \(result.kind)")
            return
        }
        #expect(tier.entries == 2)
        #expect(tier.metadataBytes > 0)
        #expect(result.entries == 2 && result.client == nil && result.live == nil)
        #expect(result.mode == .sim && result.outcomes == nil)
    }

    @Test func aClientRunCarriesItsMeasurementsAndNoTierPart() throws {
        let result = Replay.simulate(Self.trace, client: Self.client, outcomes: true)
        guard case .client(let client) = result.kind else {
            Issue.record("a client's run of kind \(result.kind)")
            return
        }
        #expect(client.configuration == Self.client)
        #expect(client.outcomes?.count == Self.trace.count)
        #expect(result.entries == nil && result.metadataBytes == nil && result.live == nil)
        #expect(result.mode == .sim)
    }

    @Test func liveMeasurementsMakeAClientRunLiveAndLeaveASingleTierAlone() {
        var client = Replay.simulate(Self.trace, client: Self.client)
        client.updateLive { $0.failures = 3 }
        #expect(client.mode == .live && client.live?.failures == 3)
        #expect(client.client?.configuration == Self.client)
        client.updateClient { $0.favouriteEvents = 2 }
        #expect(client.live?.failures == 3 && client.client?.favouriteEvents == 2)

        var tier = Replay.simulate(Self.trace, RunConfiguration(policy: .lru, capacity: 2_000))
        let before = tier
        tier.updateLive { $0.failures = 3 }
        tier.updateClient { $0.favouriteEvents = 2 }
        #expect(tier == before)
    }

    @Test func everyKindReadsBackFromJSONAsItWasWritten() throws {
        // A sweep's cell files hold results as JSON: each kind, with and without its optional parts
        var live = Replay.simulate(Self.trace, client: Self.client, outcomes: true)
        live.updateLive { live in
            live.failures = 1
            live.serverRequests = 5
        }
        let results = [
            Replay.simulate(Self.trace, RunConfiguration(policy: .lru, capacity: 2_000)),
            Replay.simulate(Self.trace, RunConfiguration(policy: .lru, capacity: 2_000), latency: false),
            Replay.simulate(Self.trace, client: Self.client),
            Replay.simulate(Self.trace, client: Self.client, outcomes: true),
            live,
        ]
        for result in results {
            let decoded = try JSONDecoder().decode(RunResult.self, from: JSONEncoder().encode(result))
            #expect(decoded == result)
            #expect(decoded.mode == result.mode && decoded.outcomes == result.outcomes)
        }
    }
}
