import CacheEngine
import Testing

@testable import CacheLab

@Suite("Comparison: policies ranked against Belady")
struct ComparisonTests {
    static let trace = ScrollScenario.named("daily-reader")!.makeTrace()
    static let capacities = [100_000, 400_000, 1_000_000]

    @Test func everyRunEqualsTheSameReplayAndIsMeasuredAgainstBeladyAtItsCapacity() throws {
        // Given two policies at three capacities on one trace
        let request = Comparison.Request(policies: [.lru, .sieve])
        let results = try Comparison.run([Comparison.Subject(trace: Self.trace, capacities: Self.capacities)], request)

        // Then there is Belady and each policy at each capacity, Belady first
        #expect(
            results.map(\.configuration.policy) == [
                .belady, .lru, .sieve, .belady, .lru, .sieve, .belady, .lru, .sieve,
            ])
        for result in results {
            let alone = Replay.simulate(Self.trace, result.configuration)
            let optimum = Replay.simulate(
                Self.trace, RunConfiguration(policy: .belady, capacity: result.cache.capacity))
            // each run is the replay `cachelab run` makes, and its optimum Belady's hits there
            #expect(result.hits == alone.hits && result.bytesHit == alone.bytesHit && result.latency == alone.latency)
            #expect(result.optimalHits == optimum.hits)
        }
    }

    @Test func policiesAreRankedByTheirMeanHitRatioWithTheirShareOfBeladysBeside() throws {
        let request = Comparison.Request(policies: [.fifo, .lru, .s3fifo, .belady], ttls: [nil, 3_600_000])
        let results = try Comparison.run([Comparison.Subject(trace: Self.trace, capacities: Self.capacities)], request)
        let ranking = try #require(Comparison.rankings(results).first)

        // Belady is the ceiling, not a contestant; each policy runs with and without a lifetime
        #expect(ranking.standings.count == 6)
        #expect(!ranking.standings.contains { $0.policy == .belady })
        #expect(ranking.optimum.map(\.cache.capacity) == Self.capacities)
        let means = ranking.standings.map(\.meanHitRatio)
        #expect(means == means.sorted(by: >))
        for standing in ranking.standings {
            #expect(standing.runs.map(\.cache.capacity) == Self.capacities)
            let expected = standing.runs.map { Double($0.hits) / Double($0.optimalHits!) }.reduce(0, +) / 3
            #expect(abs(standing.meanOptRatio - expected) < 1e-12)
        }
        #expect(ranking.standings.contains { $0.label == "lru ttl 1h" })
    }

    @Test func theTableListsEveryPolicyOnceUnderItsTrace() throws {
        let results = try Comparison.run(
            [Comparison.Subject(trace: Self.trace, capacities: Self.capacities)],
            Comparison.Request(policies: [.lru, .arc]))
        let table = ComparisonReport.table(Comparison.rankings(results))
        #expect(table.hasPrefix("\(Self.trace.name): 501 requests, 3 capacities from 100.00 KB to 1.00 MB"))
        #expect(table.contains("belady (offline optimum)"))
        for name in ["lru", "arc"] { #expect(table.contains(" \(name) ")) }
    }

    @Test func theReportEmbedsThreeChartsPerTrace() throws {
        let results = try Comparison.run(
            [Comparison.Subject(trace: Self.trace, capacities: Self.capacities)],
            Comparison.Request(policies: [.lru]))
        let rankings = Comparison.rankings(results)
        let charts = rankings.flatMap { ComparisonReport.charts($0) }
        #expect(charts.map(\.name) == ComparisonReport.chartNames(Self.trace.name))
        let markdown = ComparisonReport.markdown(rankings, command: "cachelab compare", csv: "compare.csv")
        for chart in charts {
            #expect(markdown.contains("![\(chart.name)](\(chart.name))"))
            #expect(chart.contents.hasPrefix("<svg") && chart.contents.hasSuffix("</svg>\n"))
        }
        #expect(ComparisonReport.slug("daily-reader.csv") == "daily-reader")
        #expect(ComparisonReport.slug("daily-reader(seed=1)") == "daily-reader-seed-1-")
        #expect(ComparisonReport.slug("cdn.oracleGeneral.bin") == "cdn")
    }

    @Test func aChartDrawsTheBestSevenAndLRUBesideBeladyUnlessAskedForAll() throws {
        // Given twelve policies ranked on one trace
        let policies: [PolicyKind] = [
            .lru, .fifo, .lfu, .clock, .sieve, .twoq, .s3fifo, .arc, .gdsf, .slru, .mq, .lruk,
        ]
        let results = try Comparison.run(
            [Comparison.Subject(trace: Self.trace, capacities: Self.capacities)],
            Comparison.Request(policies: policies))
        let ranking = try #require(Comparison.rankings(results).first)

        // Then the charts draw seven of them, LRU among them, and Belady's: eight lines
        let charted = ComparisonReport.charted(ranking)
        #expect(charted.count == ComparisonReport.chartedPolicies)
        #expect(charted.contains { $0.policy == .lru })
        #expect(Array(charted.prefix(6)) == Array(ranking.standings.prefix(6)))
        let missRatio = try #require(ComparisonReport.charts(ranking).first).contents
        #expect((missRatio.components(separatedBy: "<path ").count - 1) == 8)
        #expect(missRatio.contains(">\(Comparison.optimumLabel)</text>"))
        #expect(missRatio.contains("miss ratio (lower is better)"))
        // every capacity swept is a labelled tick
        for label in ["100 KB", "400 KB", "1 MB"] { #expect(missRatio.contains(">\(label)</text>"), "\(label)") }

        // And with allSeries every policy is drawn
        let all = try #require(ComparisonReport.charts(ranking, allSeries: true).first).contents
        #expect((all.components(separatedBy: "<path ").count - 1) == policies.count + 1)
    }
}
