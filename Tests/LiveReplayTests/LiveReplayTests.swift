import CacheLab
import Foundation
import LiveReplay
import Testing

/// Live replay through the real pipeline against an in-process fixture server, compared with
/// the simulator request by request.
@Suite("Live replay")
struct LiveReplayTests {
    /// The committed scroll-trace corpus (`traces/*.csv`), found from this file.
    static let corpus: [String] = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("traces").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted().map { "\(directory)/\($0)" }
    }()

    static let clients: [ClientConfiguration] = [
        ClientConfiguration(
            name: "lru-lru", memory: TierConfiguration(policy: .lru, capacity: 400_000),
            disk: TierConfiguration(policy: .lru, capacity: 1_500_000)),
        ClientConfiguration(
            name: "fifo-lfu", memory: TierConfiguration(policy: .fifo, capacity: 250_000),
            disk: TierConfiguration(policy: .lfu, capacity: 1_000_000)),
        ClientConfiguration(
            name: "lfu-ttl", memory: TierConfiguration(policy: .lfu, capacity: 600_000),
            disk: TierConfiguration(policy: .ttl, capacity: 2_000_000, ttl: 86_400_000)),
    ]

    @Test func aClientTierThatNeedsTheFutureIsRefusedBeforeAServerStarts() async {
        var trace = Trace(name: "one")
        trace.append(time: 0, key: 1, size: 10)
        let client = ClientConfiguration(
            name: "opt", memory: TierConfiguration(policy: .lru, capacity: 1_000),
            disk: TierConfiguration(policy: .belady, capacity: 10_000))
        await #expect(throws: PolicyError.needsFuture(.belady, place: "a client's disk tier")) {
            _ = try await LiveReplay.run(trace, client: client, options: LiveOptions())
        }
    }

    @Test(
        "GDSF declining newcomers and W-TinyLFU evicting on hits agree live and simulated",
        .tags(.corpus))
    func policiesThatDeclineOrEvictOnHitsMatchSimulation() async throws {
        let path = try #require(Self.corpus.first { $0.hasSuffix("/flinger.csv") })
        let trace = try TraceReader.read(path: path)
        // A 3 MB disk under W-TinyLFU keeps only photos under its 30 KB window: the small ones.
        let client = ClientConfiguration(
            name: "gdsf-wtinylfu", memory: TierConfiguration(policy: .gdsf, capacity: 300_000),
            disk: TierConfiguration(policy: .wtinylfu, capacity: 3_000_000))
        let simulated = Replay.simulate(trace, client: client, outcomes: true)
        let live = try await LiveReplay.run(trace, client: client, options: LiveOptions())
        #expect(live.failures == 0)
        #expect(simulated.outcomes == live.run.outcomes)
        #expect(simulated.diskHits > 0 && simulated.memoryHits > 0)
        #expect(live.run.bytesDownloaded == live.serverBytes)
    }

    @Test("the corpus is there", .tags(.corpus))
    func corpusIsThere() {
        #expect(Self.corpus.count == 8)
    }

    @Test(
        "live outcomes equal simulated outcomes, request by request; client bytes equal server bytes",
        .tags(.corpus), arguments: corpus)
    func liveMatchesSimulation(path: String) async throws {
        let trace = try TraceReader.read(path: path)
        for client in Self.clients {
            let simulated = Replay.simulate(trace, client: client, outcomes: true)
            let live = try await LiveReplay.run(trace, client: client, options: LiveOptions())
            let name = "\(trace.name) \(client.name)"
            #expect(live.failures == 0, "\(name): \(live.firstErrors)")
            let firstDifference = zip(simulated.outcomes, live.run.outcomes).enumerated().first {
                $0.element.0 != $0.element.1
            }
            #expect(firstDifference == nil, "\(name): request \(firstDifference?.offset ?? -1) differs")
            #expect(live.run.memoryHits == simulated.memoryHits, "\(name)")
            #expect(live.run.diskHits == simulated.diskHits, "\(name)")
            #expect(live.run.bytesDownloaded == simulated.bytesDownloaded, "\(name)")
            #expect(live.run.bytesDownloaded == live.serverBytes, "\(name)")
            #expect(live.pipeline.downloads == live.serverRequests, "\(name)")
        }
    }
}

extension Tag {
    @Tag static var corpus: Self
}
