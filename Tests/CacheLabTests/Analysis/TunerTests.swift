import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

@Suite("Tuner: the smallest tiers that cost the users no more than a margin over the best")
struct TunerTests {
    static let traces = ["daily-reader", "flinger"].map { name in
        var trace = ScrollScenario.named(name)!.makeTrace()
        trace.name = name
        return trace
    }

    static func candidate(
        _ policy: PolicyKind, _ capacity: Int, bytes: Int, p95: Double = 10, memoryShare: Double = 0,
        ttl: Int64? = nil
    ) -> Tuner.Candidate {
        Tuner.Candidate(
            tier: TierConfiguration(policy: policy, capacity: capacity, ttl: ttl), hitRatio: 0.9, byteHitRatio: 0.8,
            memoryShare: memoryShare, latencyP95: p95, bytesDownloaded: bytes)
    }

    static func bounds(
        _ candidates: [Tuner.Candidate], bytesMargin: Double = 0.05, latencyMargin: Double = 0.5
    )
        -> Tuner.Bounds
    {
        Tuner.bounds(
            candidates,
            Tuner.Request(
                memoryBudget: 1, diskBudget: 1, bytesMargin: bytesMargin, latencyMargin: latencyMargin))
    }

    @Test func aDiskLifetimeLongerThanTheTraceReplaysAsNoLifetime() throws {
        let trace = Self.traces[0]
        let outlasting = Tuner.span(trace) + Tuner.downloadSlack + 1
        for policy in Tuner.Request(memoryBudget: 1, diskBudget: 1).policies {
            func client(_ ttl: Int64?) -> ClientConfiguration {
                ClientConfiguration(
                    name: "disk", memory: nil,
                    disk: TierConfiguration(
                        policy: policy, capacity: 256 * 1024, ttl: ttl, ttlMode: ttl == nil ? .fixed : .sliding))
            }
            let none = Replay.simulate(trace, client: client(nil))
            let outlived = Replay.simulate(trace, client: client(outlasting))
            #expect(outlived.hits == none.hits && outlived.diskHits == none.diskHits, "\(policy)")
            #expect(outlived.bytesDownloaded == none.bytesDownloaded, "\(policy)")
            #expect(outlived.latency == none.latency && outlived.delayedHits == none.delayedHits, "\(policy)")
            #expect(outlived.expirations == 0, "\(policy)")
            if policy == .lru {
                // The premise is the lifetime's length: a day runs out within the trace.
                #expect(Replay.simulate(trace, client: client(86_400_000)).expirations > 0)
            }
        }
    }

    @Test func onlyClientsWhoseLifetimesCannotRunOutAreReplayedOnce() {
        let span: Int64 = 10 * 86_400_000
        let clients = [nil, span + Tuner.downloadSlack + 1, span, nil].enumerated().map { index, ttl in
            ClientConfiguration(
                name: "disk", memory: nil,
                disk: TierConfiguration(
                    policy: index == 3 ? .fifo : .lru, capacity: 1 << 20, ttl: ttl,
                    ttlMode: ttl == nil ? .fixed : .sliding))
        }
        #expect(Tuner.firstEqual(clients, span: span) == [0, 0, 2, 3])
        #expect(Tuner.firstEqual(clients, span: nil) == [0, 1, 2, 3])
    }

    @Test func capacitiesStepFrom32KiBByHalvesAndDoublingsUpToTheBudget() {
        #expect(Tuner.capacities(upTo: 32 * 1024) == [32_768])
        #expect(Tuner.capacities(upTo: 128 * 1024) == [32_768, 49_152, 65_536, 98_304, 131_072])
        // a budget off the grid is tried itself, as the largest
        #expect(Tuner.capacities(upTo: 100_000) == [32_768, 49_152, 65_536, 98_304, 100_000])
    }

    @Test func theDiskPickIsTheSmallestCapacityWithinTheBytesMarginNotTheBest() {
        let candidates = [
            Self.candidate(.lru, 100, bytes: 2_000),
            Self.candidate(.lru, 200, bytes: 1_040),
            Self.candidate(.sieve, 200, bytes: 1_030),
            Self.candidate(.lru, 400, bytes: 1_000),
        ]
        let (pick, best) = Tuner.pickDisk(candidates, within: Self.bounds(candidates))
        #expect(best.tier.capacity == 400)
        // at 200 both download at most 5 % more than the fewest; the one with fewer bytes is picked
        #expect(pick.tier.capacity == 200 && pick.tier.policy == .sieve)
        // a margin of 2 % needs the largest capacity
        #expect(
            Tuner.pickDisk(candidates, within: Self.bounds(candidates, bytesMargin: 0.02)).pick.tier.capacity == 400)
    }

    @Test func aDiskWithinTheBytesMarginButSlowerThanTheLatencyMarginIsNotPicked() {
        // Given a small disk that saves bytes but leaves one more trace waiting on the network
        let candidates = [
            Self.candidate(.lru, 100, bytes: 1_010, p95: 12.0),
            Self.candidate(.lru, 400, bytes: 1_000, p95: 10.0),
        ]
        // Then the pick is the larger one, unless the latency margin allows 2 ms more
        #expect(Tuner.pickDisk(candidates, within: Self.bounds(candidates)).pick.tier.capacity == 400)
        #expect(
            Tuner.pickDisk(candidates, within: Self.bounds(candidates, latencyMargin: 2)).pick.tier.capacity == 100)
    }

    @Test func tiesAtTheSmallestCapacityGoToFewerBytesThenLatencyThenShorterLifetime() {
        let byBytes = [Self.candidate(.lru, 100, bytes: 1_000), Self.candidate(.gdsf, 100, bytes: 990)]
        #expect(Tuner.pickDisk(byBytes, within: Self.bounds(byBytes)).pick.tier.policy == .gdsf)
        let byLatency = [Self.candidate(.lru, 100, bytes: 1_000, p95: 10.4), Self.candidate(.sieve, 100, bytes: 1_000)]
        #expect(Tuner.pickDisk(byLatency, within: Self.bounds(byLatency)).pick.tier.policy == .sieve)
        let byLifetime = [
            Self.candidate(.lru, 100, bytes: 1_000), Self.candidate(.lru, 100, bytes: 1_000, ttl: 86_400_000),
        ]
        #expect(Tuner.pickDisk(byLifetime, within: Self.bounds(byLifetime)).pick.tier.ttl == 86_400_000)
    }

    @Test func theMemoryPickKeepsTheClientWithinTheBoundsAndIsTheSmallestNearTheBestShare() {
        let bounds = Tuner.Bounds(fewestBytes: 1_000, lowestP95: 10, bytes: 1_050, p95: 10.5)
        let candidates = [
            // the smallest serves too little
            Self.candidate(.lru, 100, bytes: 1_000, memoryShare: 0.30),
            // this one serves enough (it leaves 42 % against the best's 40 %) but downloads too much
            Self.candidate(.gdsf, 200, bytes: 1_100, memoryShare: 0.58),
            // these serve enough and stay within the bounds
            Self.candidate(.lru, 200, bytes: 1_020, memoryShare: 0.585),
            Self.candidate(.sieve, 200, bytes: 1_020, memoryShare: 0.59),
            Self.candidate(.lru, 400, bytes: 1_000, memoryShare: 0.60),
        ]
        let (pick, best) = Tuner.pickMemory(candidates, within: bounds, margin: 0.05)
        #expect(best.tier.capacity == 400)
        #expect(pick.tier.capacity == 200 && pick.tier.policy == .sieve)
        // with no margin, only the best share passes
        #expect(Tuner.pickMemory(candidates, within: bounds, margin: 0).pick.tier.capacity == 400)
    }

    @Test func theRecommendationIsWhatTheClientReachesAndWithinTheMarginsOfTheBest() {
        // Given two scenarios, three policies, two lifetimes and small budgets
        let request = Tuner.Request(
            memoryBudget: 256 * 1024, diskBudget: 2 * 1024 * 1024, bytesMargin: 0.05, latencyMargin: 0.5,
            policies: [.lru, .sieve, .s3fifo], diskTTLs: [nil, 86_400_000])
        let recommendation = Tuner.tune(Self.traces, request, workers: 2)
        let bounds = recommendation.bounds

        // Then the disk pick downloads at most 5 % more than the fewest, and no smaller disk does
        #expect(recommendation.disk.bytesDownloaded <= bounds.bytes)
        #expect(recommendation.disk.latencyP95 <= bounds.p95)
        #expect(bounds.fewestBytes == recommendation.bestDisk.bytesDownloaded)
        #expect(recommendation.disk.tier.capacity <= request.diskBudget)
        #expect(recommendation.memory.tier.capacity <= request.memoryBudget)
        for smaller in Tuner.capacities(upTo: recommendation.disk.tier.capacity).dropLast() {
            for policy in request.policies {
                for ttl in request.diskTTLs {
                    let tier = TierConfiguration(
                        policy: policy, capacity: smaller, ttl: ttl, ttlMode: ttl == nil ? .fixed : .sliding)
                    let client = ClientConfiguration(name: "disk", memory: nil, disk: tier)
                    let runs = Self.traces.map { Replay.simulate($0, client: client) }
                    let bytes = runs.map(\.bytesDownloaded).reduce(0, +)
                    let p95 = runs.map { $0.latency?.p95 ?? 0 }.reduce(0, +) / 2
                    #expect(
                        bytes > bounds.bytes || p95 > bounds.p95, "\(policy) \(smaller) \(String(describing: ttl))")
                }
            }
        }

        // and the curve holds the pick, at its capacity, as the best there
        #expect(recommendation.diskCurve.contains(recommendation.disk))
        #expect(recommendation.diskCurve.map(\.tier.capacity) == Tuner.capacities(upTo: request.diskBudget))

        // and the recommended client, replayed, gives exactly the figures the pick was made on,
        // within the bounds
        let runs = Self.traces.map { Replay.simulate($0, client: recommendation.client) }
        let served = runs.map { Double($0.memoryHits) / Double($0.requests) }.reduce(0, +) / 2
        #expect(served == recommendation.memory.memoryShare)
        #expect(runs.map(\.bytesDownloaded).reduce(0, +) == recommendation.memory.bytesDownloaded)
        #expect(recommendation.memory.bytesDownloaded <= bounds.bytes)
        #expect(recommendation.client.memory == recommendation.memory.tier)
        #expect(recommendation.client.disk == recommendation.disk.tier)

        // and tuning again gives the same answer
        #expect(Tuner.tune(Self.traces, request, workers: 1) == recommendation)
    }

    /// A small answer on the two scenarios: LRU and S3-FIFO, no lifetime, small budgets.
    static func answer(policies: [PolicyKind] = [.lru, .s3fifo]) throws -> TuningAnswer {
        let request = Tuner.Request(
            memoryBudget: 256 * 1024, diskBudget: 1024 * 1024, policies: policies, diskTTLs: [nil])
        return try TuningAnswer.make(
            kind: "custom", summary: "two scenarios", sources: Self.traces.map { TraceSource($0) }, request: request,
            device: .iphoneSE2, workers: 1)
    }

    @Test func pinnedBytesAreReportedApartFromTheCapacities() throws {
        // Given a client with small tiers on the two scenarios, whose readers favourite recipes
        let client = ClientConfiguration(
            name: "small", memory: TierConfiguration(policy: .lru, capacity: 200_000),
            disk: TierConfiguration(policy: .lru, capacity: 500_000))
        let summary = try #require(
            try ClientSummary.summarize([client], on: Self.traces.map { TraceSource($0) }, workers: 1).first)

        // Then the most pinned on any trace is what the replays pinned
        let runs = Self.traces.map { Replay.simulate($0, client: client) }
        #expect(summary.pinnedDiskPeak == runs.compactMap(\.client?.pins.peakDiskBytes).max())
        #expect(summary.pinnedMemoryPeak == runs.compactMap(\.client?.pins.peakMemoryBytes).max())
        #expect(summary.pinnedDiskPeak > 0)

        // and an answer's report and JSON give the recommended client's peaks
        let answer = try Self.answer()
        let recommended = answer.recommended
        #expect(recommended.pinnedDiskPeak > 0)
        let markdown = TuningReport.markdown(answer, command: "test")
        #expect(
            markdown.contains(
                "favourites pinned at most \(Report.bytes(recommended.pinnedMemoryPeak)) in memory and \(Report.bytes(recommended.pinnedDiskPeak)) on disk"
            ))
        let json = TuningReport.json([answer], command: "test")
        #expect(json.contains("\"pinned_disk_peak_bytes\": \(recommended.pinnedDiskPeak)"))
    }

    @Test func anAnswerComparesEveryPresetAtItsOwnBudgetAndAtTheRecommendedSize() throws {
        let answer = try Self.answer()
        let memory = answer.recommendation.memory.tier.capacity
        let disk = answer.recommendation.disk.tier.capacity

        // The recommended client first, then every preset as it sizes itself on the device
        #expect(answer.atOwnBudget[0].client == answer.recommendation.client)
        let presets = ClientPreset.allCases.map { $0.configuration(device: .iphoneSE2) }
        #expect(answer.atOwnBudget.dropFirst().map(\.client) == presets)
        // and each again with the recommended tiers' capacities, replayed as such
        #expect(answer.atRecommendedSize.map(\.client) == presets.map { $0.resized(memory: memory, disk: disk) })
        for summary in answer.atRecommendedSize {
            #expect(summary.client.memory.map { $0.capacity == memory } ?? true, "\(summary.client.name)")
            #expect(summary.client.disk.map { $0.capacity == disk } ?? true, "\(summary.client.name)")
            let bytes = Self.traces.map { Replay.simulate($0, client: summary.client).bytesDownloaded }.reduce(0, +)
            #expect(summary.bytesDownloaded == bytes, "\(summary.client.name)")
        }
    }

    @Test func disksWithinTheBytesMarginOfTheBestAtTheChosenSizeTie() throws {
        let answer = try Self.answer()
        let atCapacity = answer.recommendation.diskAtCapacity
        let best = try #require(atCapacity.first)
        // Every policy at the chosen size within 5 % of the best's bytes (and the p95 margin) ties,
        // the best first; the others do not
        for candidate in atCapacity {
            let ties =
                Double(candidate.bytesDownloaded) <= Double(best.bytesDownloaded) * 1.05
                && candidate.latencyP95 <= best.latencyP95 + 0.5
            #expect(answer.diskTies.contains(candidate) == ties, "\(candidate.label)")
        }
        #expect(answer.diskTies.first == best)
        // and the overview says whether to keep LRU
        let verdict = TuningReport.policyVerdict(answer)
        if answer.diskTies.contains(where: { $0.tier.policy == .lru }) {
            #expect(verdict.contains("keep your library's LRU"))
        } else {
            #expect(verdict.contains("LRU downloads"))
        }
    }

    @Test func thePolicyMattersWhereTheBestSavesTheMarginOverLRU() throws {
        let answer = try Self.answer()
        let capacities = Set(answer.recommendation.diskCandidates.map(\.tier.capacity))
        #expect(answer.policyWorth.map(\.capacity) == capacities.sorted())
        for worth in answer.policyWorth {
            // the best at each capacity, and LRU's, as the candidates give them
            let here = answer.recommendation.diskCandidates.filter { $0.tier.capacity == worth.capacity }
            #expect(worth.best.bytesDownloaded == here.map(\.bytesDownloaded).min())
            #expect(worth.lru.bytesDownloaded == here.filter { $0.tier.policy == .lru }.map(\.bytesDownloaded).min())
            let saving = 1 - Double(worth.best.bytesDownloaded) / Double(worth.lru.bytesDownloaded)
            #expect(abs(worth.saving - saving) < 1e-12)
            #expect(answer.policyMatters.contains(worth) == (saving >= 0.05 - 1e-12))
        }
    }

    @Test func aLargerBudgetNeverRecommendsMoreBytes() {
        let small = Tuner.Request(
            memoryBudget: 64 * 1024, diskBudget: 512 * 1024, bytesMargin: 0, policies: [.lru, .s3fifo],
            diskTTLs: [nil])
        var large = small
        large.diskBudget = 4 * 1024 * 1024
        let a = Tuner.tune(Self.traces, small, workers: 2)
        let b = Tuner.tune(Self.traces, large, workers: 2)
        #expect(b.disk.bytesDownloaded <= a.disk.bytesDownloaded)
        #expect(b.disk.tier.capacity >= a.disk.tier.capacity)
    }

    @Test func theVerdictNamesThePresetThatDownloadsTheFewestAndByHowMuch() throws {
        let answer = try Self.answer()
        let presets = answer.atOwnBudget.dropFirst()
        let fewest = try #require(presets.map(\.bytesDownloaded).min())
        let names = presets.filter { $0.bytesDownloaded == fewest }.map(\.client.name)
        let verdict = TuningReport.presetVerdict(answer)
        #expect(verdict.contains(names.joined(separator: ", ")))
        // against the recommendation, written one way: the preset's bytes ÷ the recommendation's − 1
        #expect(
            verdict.contains(
                "\(Report.bytes(fewest)) (\(TuningReport.relative(fewest, to: answer.recommended.bytesDownloaded)) against the recommendation's"
            ))
        #expect(TuningReport.relative(990, to: 1_000) == "-1.0 %")
        #expect(TuningReport.relative(1_034, to: 1_000) == "+3.4 %")
    }

    @Test func theCandidatesAreEveryOnlinePolicyButTTLAdaptiveWTinyLFUAmongThem() {
        // Given a request with the default policies
        let request = Tuner.Request(memoryBudget: 64 * 1024, diskBudget: 512 * 1024)

        // Then every policy a client can run is tried, Caffeine's W-TinyLFU too; not those that
        // need the future (Belady, BeladySize), nor TTL (lifetimes are tried on every policy instead)
        #expect(request.policies.contains(.wtinylfuAdaptive))
        #expect(request.policies == PolicyKind.online.filter { $0 != .ttl })
    }

    @Test func theClientSourceNamesEveryPolicyAsItsSwiftCase() {
        // A hyphenated command-line name is no Swift identifier: the source spells the case
        #expect(TuningReport.caseName(.wtinylfuAdaptive) == "wtinylfuAdaptive")
        #expect(TuningReport.caseName(.s3fifo) == "s3fifo")
        for policy in PolicyKind.allCases {
            #expect(TuningReport.caseName(policy).allSatisfy { $0.isLetter || $0.isNumber }, "\(policy)")
        }
    }

    @Test func aRecommendationOfAdaptiveWTinyLFUCompilesAsItsCase() throws {
        // Given a tuning run with only Caffeine's W-TinyLFU to choose from
        var answer = try Self.answer(policies: [.wtinylfuAdaptive])

        // Then the Swift source names the case, not the command-line name
        let source = TuningReport.swiftSource([answer], jsonPath: "results/recommended-defaults.json")
        #expect(source.contains("policy: .wtinylfuAdaptive"))
        #expect(!source.contains(".wtinylfu-adaptive"))
        // and an answer for custom traces is the default for every kind
        #expect(source.contains("default:\n            recommended"))

        // and answers for every kind each get their case, the small catalog's the plain default
        answer.kind = AppKind.smallCatalog.rawValue
        var others = AppKind.allCases.dropFirst().map { kind in
            var other = answer
            other.kind = kind.rawValue
            return other
        }
        others.insert(answer, at: 0)
        let every = TuningReport.swiftSource(others, jsonPath: "results/recommended-defaults.json")
        for kind in AppKind.allCases { #expect(every.contains("case .\(TuningReport.caseName(kind)):")) }
        #expect(!every.contains("default:"))
    }
}
