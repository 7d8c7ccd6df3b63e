import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

@Suite("Tuner: the smallest tiers within a margin of the best")
struct TunerTests {
    static let traces = ["daily-reader", "flinger"].map { name in
        var trace = ScrollScenario.named(name)!.makeTrace()
        trace.name = name
        return trace
    }

    static func candidate(
        _ policy: PolicyKind, _ capacity: Int, score: Double, byteHitRatio: Double = 0.5, p95: Double = 10,
        ttl: Int64? = nil
    ) -> Tuner.Candidate {
        Tuner.Candidate(
            tier: TierConfiguration(policy: policy, capacity: capacity, ttl: ttl), score: score, hitRatio: score,
            byteHitRatio: byteHitRatio, latencyP95: p95, bytesDownloaded: 0)
    }

    @Test func capacitiesStepFrom32KiBByHalvesAndDoublingsUpToTheBudget() {
        #expect(Tuner.capacities(upTo: 32 * 1024) == [32_768])
        #expect(Tuner.capacities(upTo: 128 * 1024) == [32_768, 49_152, 65_536, 98_304, 131_072])
        // a budget off the grid is tried itself, as the largest
        #expect(Tuner.capacities(upTo: 100_000) == [32_768, 49_152, 65_536, 98_304, 100_000])
    }

    @Test func thePickIsTheSmallestCapacityWithinTheMarginNotTheBest() {
        let candidates = [
            Self.candidate(.lru, 100, score: 0.50),
            Self.candidate(.lru, 200, score: 0.69),
            Self.candidate(.sieve, 200, score: 0.695),
            Self.candidate(.lru, 400, score: 0.70),
        ]
        let (pick, best) = Tuner.pick(candidates, margin: 0.01)
        #expect(best.tier.capacity == 400)
        // at 200 both come within a point of 0.70; a smaller margin needs the largest capacity
        #expect(pick.tier.capacity == 200)
        #expect(Tuner.pick(candidates, margin: 0.001).pick.tier.capacity == 400)
    }

    @Test func tiesAtTheSmallestCapacityGoToBytesSavedThenLatencyThenShorterLifetime() {
        let byBytes = [
            Self.candidate(.lru, 100, score: 0.70, byteHitRatio: 0.40),
            Self.candidate(.gdsf, 100, score: 0.70, byteHitRatio: 0.45),
        ]
        #expect(Tuner.pick(byBytes, margin: 0.01).pick.tier.policy == .gdsf)
        let byLatency = [
            Self.candidate(.lru, 100, score: 0.70, p95: 12),
            Self.candidate(.sieve, 100, score: 0.70, p95: 9),
        ]
        #expect(Tuner.pick(byLatency, margin: 0.01).pick.tier.policy == .sieve)
        let byLifetime = [
            Self.candidate(.lru, 100, score: 0.70),
            Self.candidate(.lru, 100, score: 0.70, ttl: 86_400_000),
        ]
        #expect(Tuner.pick(byLifetime, margin: 0.01).pick.tier.ttl == 86_400_000)
    }

    @Test func theRecommendationIsWhatTheClientReachesAndWithinTheMarginOfTheBest() {
        // Given two scenarios, three policies, two lifetimes and small budgets
        let request = Tuner.Request(
            memoryBudget: 256 * 1024, diskBudget: 2 * 1024 * 1024, margin: 0.02, policies: [.lru, .sieve, .s3fifo],
            diskTTLs: [nil, 86_400_000])
        let recommendation = Tuner.tune(Self.traces, request, workers: 2)

        // Then the disk pick is within the margin of the best, and no smaller disk is
        #expect(recommendation.disk.score >= recommendation.bestDisk.score - 0.02 - 1e-12)
        #expect(recommendation.disk.tier.capacity <= request.diskBudget)
        #expect(recommendation.memory.tier.capacity <= request.memoryBudget)
        for smaller in Tuner.capacities(upTo: recommendation.disk.tier.capacity).dropLast() {
            for policy in request.policies {
                for ttl in request.diskTTLs {
                    let tier = TierConfiguration(policy: policy, capacity: smaller, ttl: ttl, ttlMode: .sliding)
                    let client = ClientConfiguration(name: "disk", memory: nil, disk: tier)
                    let mean = Self.traces.map { Replay.simulate($0, client: client).hitRatio }.reduce(0, +) / 2
                    #expect(
                        mean < recommendation.bestDisk.score - 0.02, "\(policy) \(smaller) \(String(describing: ttl))")
                }
            }
        }

        // and the recommended client, replayed, gives exactly the figures the pick was made on
        let runs = Self.traces.map { Replay.simulate($0, client: recommendation.client) }
        let served = runs.map { Double($0.memoryHits) / Double($0.requests) }.reduce(0, +) / 2
        #expect(served == recommendation.memory.score)
        #expect(recommendation.client.memory == recommendation.memory.tier)
        #expect(recommendation.client.disk == recommendation.disk.tier)

        // and tuning again gives the same answer
        #expect(Tuner.tune(Self.traces, request, workers: 1) == recommendation)
    }

    @Test func pinnedBytesAreReportedApartFromTheCapacities() throws {
        // Given the two scenarios, whose readers favourite recipes, and a client with small tiers
        let client = ClientConfiguration(
            name: "small", memory: TierConfiguration(policy: .lru, capacity: 200_000),
            disk: TierConfiguration(policy: .lru, capacity: 500_000))
        let summary = try #require(
            try TuningReport.summarize([client], on: Self.traces.map { TraceSource($0) }, workers: 1).first)

        // Then the most pinned on any trace is what the replays pinned, and the report shows it
        let runs = Self.traces.map { Replay.simulate($0, client: client) }
        #expect(summary.pinnedDiskPeak == runs.map(\.pins.peakDiskBytes).max())
        #expect(summary.pinnedMemoryPeak == runs.map(\.pins.peakMemoryBytes).max())
        #expect(summary.pinnedDiskPeak > 0)
        let request = Tuner.Request(
            memoryBudget: 64 * 1024, diskBudget: 128 * 1024, margin: 0.02, policies: [.lru], diskTTLs: [nil])
        let recommendation = Tuner.tune(Self.traces, request, workers: 1)
        let markdown = TuningReport.markdown(recommendation, comparison: [summary], command: "test")
        #expect(
            markdown.contains("| \(Report.bytes(summary.pinnedMemoryPeak)) / \(Report.bytes(summary.pinnedDiskPeak)) |")
        )
        let json = TuningReport.json(recommendation, expected: summary, command: "test")
        #expect(json.contains("\"pinned_disk_peak_bytes\": \(summary.pinnedDiskPeak)"))
    }

    @Test func aLargerBudgetNeverRecommendsLessHitRatio() {
        let small = Tuner.Request(
            memoryBudget: 64 * 1024, diskBudget: 512 * 1024, margin: 0, policies: [.lru, .s3fifo], diskTTLs: [nil])
        var large = small
        large.diskBudget = 4 * 1024 * 1024
        let a = Tuner.tune(Self.traces, small, workers: 2)
        let b = Tuner.tune(Self.traces, large, workers: 2)
        #expect(b.disk.score >= a.disk.score)
        #expect(b.disk.tier.capacity >= a.disk.tier.capacity)
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

    @Test func aRecommendationOfAdaptiveWTinyLFUCompilesAsItsCase() {
        // Given a tuning run with only Caffeine's W-TinyLFU to choose from
        let request = Tuner.Request(
            memoryBudget: 64 * 1024, diskBudget: 256 * 1024, policies: [.wtinylfuAdaptive], diskTTLs: [nil])
        let recommendation = Tuner.tune(Self.traces, request, workers: 2)

        // Then the Swift source names the case, not the command-line name
        let source = TuningReport.swiftSource(recommendation, jsonPath: "results/recommended-defaults.json")
        #expect(source.contains("policy: .wtinylfuAdaptive"))
        #expect(!source.contains(".wtinylfu-adaptive"))
    }
}
