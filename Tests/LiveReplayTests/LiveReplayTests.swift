import CacheEngine
import CacheLab
import CacheLabRecorder
import ClientModel
import FixtureServer
import Foundation
import LiveReplay
import LiveServer
import Testing

/// Live replay through the real pipeline against an in-process fixture server, compared with
/// the simulator request by request. Not paced, the replay asks for photos still downloading
/// where the trace's times do not, so its delayed hits agree with the simulator's hits
/// (`OutcomeAgreement`); `PacedLiveReplayTests` compares delayed hits themselves.
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
            _ = try await LiveServer.run(trace, client: client)
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
        let live = try await LiveServer.run(trace, client: client)
        #expect(live.failures == 0)
        #expect(Self.agree(live.run, simulated))
        #expect(simulated.diskHits > 0 && simulated.memoryHits > 0)
        #expect(live.run.bytesDownloaded == live.serverBytes)
        // The live result is of the live kind, with the client's configuration, and says so in
        // its `mode` column; the simulated one is a simulated client's.
        #expect(ReportColumn.mode.value(of: live.run) == "live" && ReportColumn.mode.value(of: simulated) == "sim")
        #expect(live.run.client?.configuration == client && live.run.live?.serverBytes == live.serverBytes)
    }

    @Test(
        "every preset reacts to the app's events alike live and simulated (decoded memory, pins, trims, sweeps)",
        .tags(.corpus), arguments: ClientPreset.allCases)
    func presetsAgreeLiveAndSimulated(preset: ClientPreset) async throws {
        // The searcher has favourites, memory warnings, interruptions and relaunches.
        let path = try #require(Self.corpus.first { $0.hasSuffix("/searcher.csv") })
        let trace = try TraceReader.read(path: path)
        #expect(trace.events.contains { $0.kind == .memoryWarning } && trace.pixelSizes != nil)
        let client = preset.configuration(device: .androidGo)
        let simulated = Replay.simulate(trace, client: client, outcomes: true)
        let live = try await LiveServer.run(trace, client: client)

        #expect(live.failures == 0, "\(live.firstErrors)")
        #expect(Self.agree(live.run, simulated))
        #expect(live.run.client?.memoryPeakCost == simulated.client?.memoryPeakCost)
        #expect(live.run.client?.diskPeakBytes == simulated.client?.diskPeakBytes)
        #expect(live.run.client?.pins == simulated.client?.pins)
    }

    @Test func aFavouriteOfAPhotoNoRequestAsksForReplaysLive() async throws {
        // Given a favourite of a large photo that was never shown, then its thumbnail twice
        var trace = Trace(
            name: "favourite-first",
            keyNames: ["https://recipes.example/photos/a/small.jpg", "https://recipes.example/photos/a/large.jpg"])
        trace.appendEvent(.favourite, time: 0, key: 1)
        trace.append(time: 1, key: 0, size: 10_000)
        trace.append(time: 2, key: 0, size: 10_000)
        let client = Self.clients[0]

        // Then the live replay pins it without serving it, as the simulator does
        let simulated = Replay.simulate(trace, client: client, outcomes: true)
        let live = try await LiveServer.run(trace, client: client)
        #expect(live.failures == 0 && Self.agree(live.run, simulated))
        #expect(live.run.client?.favouriteEvents == 1 && simulated.client?.favouriteEvents == 1)
    }

    @Test("the corpus is there", .tags(.corpus))
    func corpusIsThere() {
        #expect(Self.corpus.count == 8)
    }

    @Test(
        "a prefetching list drives the prefetcher: live outcomes equal simulated ones, request by request",
        arguments: [NetworkProfile.wifi, .slow3g])
    func aPrefetchingListDrivesThePrefetcher(network: NetworkProfile) async throws {
        // Given the flinger's first day as a prefetching list, with Nuke's tiers
        var scenario = try #require(ScrollScenario.named("flinger"))
        scenario.list = .prefetching
        scenario.days = 1
        let trace = scenario.makeTrace()
        #expect(trace.events.contains { $0.kind == .stopPrefetch })
        let client = ClientPreset.nuke.configuration(device: .iphoneSE2, network: network)
        let simulated = Replay.simulate(trace, client: client, outcomes: true)
        // When it is replayed live, unpaced
        let live = try await LiveServer.run(trace, client: client)
        // Then every outcome agrees, the prefetches' included
        let agreement = OutcomeAgreement(live: live.run.outcomes ?? [], simulated: simulated, margin: 0)
        #expect(live.failures == 0, "\(live.firstErrors)")
        #expect(agreement.isComplete, "\(network): \(agreement.firstDisagreements)")
        #expect(live.run.misses == simulated.misses && live.run.delayedHits == simulated.delayedHits)
        #expect(live.run.bytesDownloaded == simulated.bytesDownloaded)
        #expect(live.run.client?.droppedPrefetches == simulated.client?.droppedPrefetches)
    }

    @Test func stoppedPrefetchesAreDroppedOrCancelledLiveAsSimulated() async throws {
        // Given four prefetches at once (two run, two wait); the fourth stopped while it waits,
        // the first while it downloads (its slot starts the third), the second after its row
        // joined it; then every photo asked for by its row once the downloads are over
        let names = (0..<4).map { "https://recipes.example/photos/p\($0)/small.jpg" }
        var trace = Trace(name: "prefetches", keyNames: names)
        for key: UInt64 in 0..<4 {
            trace.appendEvent(.prefetch, time: 0, key: key)
            trace.append(time: 0, key: key, size: 10_000)
        }
        trace.appendEvent(.stopPrefetch, time: 1, key: 3)
        trace.appendEvent(.stopPrefetch, time: 2, key: 0)
        trace.append(time: 5, key: 1, size: 10_000)
        trace.appendEvent(.stopPrefetch, time: 6, key: 1)
        for key: UInt64 in 0..<4 { trace.append(time: 100, key: key, size: 10_000) }
        let client = ClientConfiguration(
            name: "t", memory: TierConfiguration(policy: .lru, capacity: 1 << 20),
            disk: TierConfiguration(policy: .lru, capacity: 1 << 20), network: .wifi)
        let simulated = Replay.simulate(trace, client: client, outcomes: true)
        // Then the simulator drops the fourth, cancels the first's download (its row downloads
        // it again) and keeps the second's for its row
        #expect(
            simulated.outcomes == [
                .network, .network, .network, .dropped, .delayed, .network, .memory, .memory, .network,
            ])
        #expect(simulated.client?.droppedPrefetches == 1 && simulated.bytesDownloaded == 40_000)

        // And the live replay, through the real prefetcher, does the same
        let live = try await LiveServer.run(trace, client: client)
        #expect(live.failures == 0, "\(live.firstErrors)")
        #expect(live.run.outcomes == simulated.outcomes)
        #expect(live.pipeline.cancelledDownloads == 1 && live.run.bytesDownloaded == 40_000)
    }

    @Test(
        "live outcomes equal simulated outcomes, request by request; client bytes equal server bytes; the recording of the run is the trace again",
        .tags(.corpus), arguments: corpus)
    func liveMatchesSimulation(path: String) async throws {
        let trace = try TraceReader.read(path: path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        for client in Self.clients {
            let simulated = Replay.simulate(trace, client: client, outcomes: true)
            var options = LiveOptions()
            // The first client's run is recorded, as an app's TraceRecorder would record it.
            let recorder = client == Self.clients[0] ? try TraceRecorder(directory: folder) : nil
            options.recorder = recorder
            let live = try await LiveServer.run(trace, client: client, options: options)
            let name = "\(trace.name) \(client.name)"
            if let recorder {
                try await recorder.close()
                try Self.expectRecording(at: folder, toReplay: trace, live: live.run)
            }
            #expect(live.failures == 0, "\(name): \(live.firstErrors)")
            let agreement = OutcomeAgreement(live: live.run.outcomes ?? [], simulated: simulated, margin: 0)
            #expect(agreement.isComplete, "\(name): \(agreement.firstDisagreements)")
            #expect(live.run.hits + live.run.delayedHits == simulated.hits + simulated.delayedHits, "\(name)")
            #expect(live.run.misses == simulated.misses, "\(name)")
            #expect(live.run.bytesDownloaded == simulated.bytesDownloaded, "\(name)")
            #expect(live.run.bytesDownloaded == live.serverBytes, "\(name)")
            #expect(live.pipeline.downloads == live.live.serverRequests, "\(name)")
            #expect(live.run.client?.favouriteEvents == simulated.client?.favouriteEvents, "\(name)")
            #expect(live.run.client?.pins == simulated.client?.pins, "\(name)")
            #expect(live.run.client?.memoryPeakCost == simulated.client?.memoryPeakCost, "\(name)")
            #expect(live.run.client?.diskPeakBytes == simulated.client?.diskPeakBytes, "\(name)")
        }
    }

    @Test("favourites pinned, refused for the budget and unpinned agree live and simulated", .tags(.corpus))
    func favouritesAgreeLiveAndSimulatedUnderATightPinBudget() async throws {
        // The searcher favourites and unfavourites; budgets of about two photos make pins refused.
        let path = try #require(Self.corpus.first { $0.hasSuffix("/searcher.csv") })
        let trace = try TraceReader.read(path: path)
        let client = ClientConfiguration(
            name: "tight-pins", memory: TierConfiguration(policy: .lru, capacity: 200_000, pinBudget: 60_000),
            disk: TierConfiguration(policy: .s3fifo, capacity: 600_000, pinBudget: 90_000))
        let simulated = Replay.simulate(trace, client: client, outcomes: true)
        let live = try await LiveServer.run(trace, client: client)

        #expect(live.failures == 0, "\(live.firstErrors)")
        #expect(Self.agree(live.run, simulated))
        #expect(simulated.client?.favouriteEvents == trace.events.filter(\.kind.takesKey).count)
        #expect(trace.events.contains { $0.kind == .unfavourite })
        #expect((simulated.client?.pins.refusals ?? 0) > 0 && (simulated.client?.pins.peakDiskBytes ?? 0) > 0)
        #expect(live.run.client?.pins == simulated.client?.pins)
    }
}

extension LiveReplayTests {
    /// The recording of a live run holds the trace's requests again, in order: the same sizes and
    /// times, keys that are the same exactly where the trace's are (hashed URLs), the same events,
    /// and the tiers that served them.
    static func expectRecording(at folder: URL, toReplay trace: Trace, live: RunResult) throws {
        let recording = try Recording.read(path: folder.path)
        let recorded = recording.trace
        let name = trace.name
        #expect(recorded.count == trace.count, "\(name)")
        guard recorded.count == trace.count else { return }
        #expect(recorded.sizes == trace.sizes, "\(name)")
        #expect(recorded.times == trace.times, "\(name)")
        #expect(recorded.events == trace.events, "\(name)")
        // One recorded key per trace key and one trace key per recorded key: equal up to hashing.
        var forward: [UInt64: UInt64] = [:]
        var backward: [UInt64: UInt64] = [:]
        for (original, hashed) in zip(trace.keys, recorded.keys) {
            #expect(forward.updateValue(hashed, forKey: original) ?? hashed == hashed, "\(name): key \(original)")
            #expect(backward.updateValue(original, forKey: hashed) ?? original == original, "\(name): key \(hashed)")
        }
        // A delayed hit is recorded as the tier that served it.
        let served = recording.sources["memory", default: 0] + recording.sources["disk", default: 0]
        #expect(served == live.hits + live.delayedHits, "\(name)")
        #expect(recording.sources["memory", default: 0] >= live.memoryHits, "\(name)")
        #expect(recording.sources["network", default: 0] == live.misses, "\(name)")
        #expect(recording.droppedPartialLines == 0 && recording.raisedTimes == 0, "\(name)")
    }
}

extension LiveReplayTests {
    /// Whether a live run agrees with the simulation, request by request: exactly when it was
    /// not paced (margin 0: each download is handed over at its modelled end). A paced run in
    /// this suite, whose other tests can hold both cores, passes `.max`: whether a request came
    /// before its download ended is then left to the wall clock; hits, misses and failures must
    /// still be equal (CI's quiet `PacedLiveReplayTests` hold paced runs to the real margin).
    static func agree(_ live: RunResult, _ simulated: RunResult, margin: Int = 0) -> Bool {
        OutcomeAgreement(live: live.outcomes ?? [], simulated: simulated, margin: margin).isComplete
    }
}

extension Tag {
    @Tag static var corpus: Self
}

extension LiveReplayTests {
    @Test func aMaxGapPacesADayBetweenSessionsAsAMoment() async throws {
        // Given two requests for one photo a day apart, paced in real time
        var trace = Trace(name: "a-day-apart", keyNames: ["https://recipes.example/photos/a/small.jpg"])
        trace.append(time: 0, key: 0, size: 10_000)
        trace.append(time: 86_400_000, key: 0, size: 10_000)
        var options = LiveOptions()
        options.speed = 1
        options.maxGap = 200

        // When the day is cut to 200 ms
        let clock = ContinuousClock()
        let started = clock.now
        let live = try await LiveServer.run(trace, client: Self.clients[0], options: options)

        // Then the replay takes moments, not a day, each request with the outcome the simulator
        // gives it
        // (A day paced in full is 86,400 s; an hour allows for a suite whose synchronous tests
        // hold both cores, and the cooperative pool with them, for many minutes.)
        #expect(started.duration(to: clock.now) < .seconds(3_600))
        #expect(Self.agree(live.run, Replay.simulate(trace, client: Self.clients[0], outcomes: true), margin: .max))
    }
}

extension LiveReplayTests {
    @Test func aMemoryHitIsNotTimedBehindASlowDownload() async throws {
        // Given two photos shown, then, three seconds later, while a third downloads from a server
        // that takes 600 ms, the first two again, paced in real time
        let names = (0..<3).map { "https://recipes.example/photos/\($0)/small.jpg" }
        var trace = Trace(name: "hits-behind-a-miss", keyNames: names)
        for (time, key) in [(0, 0), (1, 1), (3_000, 2), (3_100, 0), (3_200, 1)] {
            trace.append(time: Int64(time), key: UInt64(key), size: 10_000)
        }
        var options = LiveOptions()
        options.speed = 1
        var configuration = FixtureConfiguration()
        configuration.latency = .milliseconds(600)

        // When it replays live
        let live = try await LiveServer.run(
            trace, client: Self.clients[0], options: options, configuration: configuration)

        // Then the two memory hits are timed when they were shown, not when the download ended,
        // and every outcome is the simulator's
        #expect(live.failures == 0)
        let memory = try #require(
            live.run.live?.latencyBySource[.memory], "no memory hits: \(live.run.outcomes ?? [])")
        #expect(memory.p99 < 300, "memory hits took \(memory.p99) ms")
        #expect(try #require(live.run.live?.latencyBySource[.network]).p50 >= 500)
        #expect(Self.agree(live.run, Replay.simulate(trace, client: Self.clients[0], outcomes: true), margin: .max))
    }
}
