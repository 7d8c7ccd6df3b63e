import CacheEngine
import Foundation
import Testing

@testable import CacheLab
@testable import CacheLabCLI

/// `cachelab run --vs-opt`, and where `belady` is refused.
@Suite("Comparing with the optimum")
struct VsOptTests {
    @Test func vsOptParsesAndIsOffByDefault() throws {
        let plain = try #require(try CacheLabCommand.parseAsRoot(["run"]) as? RunCommand)
        #expect(!plain.vsOpt)
        let asked = try #require(
            try CacheLabCommand.parseAsRoot(["run", "--vs-opt", "--policy", "all"]) as? RunCommand)
        #expect(asked.vsOpt)
        #expect(try asked.policies().contains(.belady))
    }

    @Test func allInALiveReplayLeavesOutPoliciesThatNeedTheFuture() throws {
        let run = try #require(
            try CacheLabCommand.parseAsRoot(["run", "--mode", "live", "--policy", "all"]) as? RunCommand)
        #expect(try run.policies() == PolicyKind.online)
    }

    @Test(arguments: [
        ["run", "--mode", "live", "--policy", "belady"],
        ["run", "--mode", "live", "--policy", "lru,belady"],
        ["run", "--memory-policy", "belady", "--memory-capacity", "1MB"],
        [
            "run", "--disk-policy", "belady", "--disk-capacity", "1MB", "--memory-policy", "lru", "--memory-capacity",
            "1MB",
        ],
    ])
    func beladyOutsideTheSingleTierSimulatorIsRefusedSayingWhere(arguments: [String]) {
        #expect {
            try CacheLabCommand.parseAsRoot(arguments)
        } throws: { error in
            CacheLabCommand.message(for: error)
                == "belady needs the whole trace in advance; it runs only in the simulator (--mode sim, single tier)"
        }
    }

    @Test(arguments: [["run", "--vs-opt", "--client", "nuke"], ["run", "--vs-opt", "--mode", "live"]])
    func vsOptOutsideTheSingleTierSimulatorIsRefused(arguments: [String]) {
        #expect {
            try CacheLabCommand.parseAsRoot(arguments)
        } throws: { error in
            CacheLabCommand.message(for: error).contains("runs only in the simulator (--mode sim, single tier)")
        }
    }

    @Test func optRatioIsTheHitsOverBeladysHitsAndBeladyRunsOncePerCapacity() throws {
        // Given two policies at two capacities, compared with the optimum
        let output = try Binary.run([
            "run", "--policy", "lru,fifo", "--size-mode", "unit", "--capacity", "40,120", "--vs-opt", "--format", "csv",
        ])
        #expect(output.status == 0)
        let rows = Self.rows(output.stdout)
        #expect(rows.count == 4)
        // Then belady ran once per capacity, not once per policy
        #expect(output.stderr.components(separatedBy: "belady at ").count - 1 == 2)
        // And each row's opt_ratio is its hits over belady's hits at that capacity
        for capacity in ["40", "120"] {
            let optimum = try Binary.run([
                "run", "--policy", "belady", "--size-mode", "unit", "--capacity", capacity, "--format", "csv",
            ])
            let beladyHits = try #require(Self.rows(optimum.stdout).first?["hits"].flatMap(Double.init))
            #expect(beladyHits > 0)
            for row in rows where row["capacity_bytes"] == capacity {
                let hits = try #require(row["hits"].flatMap(Double.init))
                #expect(row["opt_ratio"] == Report.decimal(hits / beladyHits, places: 6))
                #expect(hits <= beladyHits)
            }
        }
    }

    @Test func withoutVsOptTheColumnIsEmpty() throws {
        #expect(Report.csvHeader.contains(",opt_ratio"))
        let output = try Binary.run(["run", "--policy", "lru", "--format", "csv"])
        let row = try #require(Self.rows(output.stdout).first)
        #expect(row["opt_ratio"] == "")
    }

    @Test func theTableShowsTheShareOfTheOptimum() throws {
        let output = try Binary.run(["run", "--policy", "lru", "--size-mode", "unit", "--capacity", "40", "--vs-opt"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("vs optimum"))
        #expect(output.stdout.contains("(belady "))
    }

    @Test func optRatioOfARunResult() {
        var result = RunResult(trace: "t", configuration: RunConfiguration(policy: .lru, capacity: 1))
        #expect(result.optRatio == nil)
        result.hits = 3
        result.optimalHits = 4
        #expect(result.optRatio == 0.75)
        result.hits = 0
        result.optimalHits = 0
        #expect(result.optRatio == 1)
    }

    /// The CSV output as one dictionary per row, by column name.
    static func rows(_ csv: String) -> [[String: String]] {
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: true)
        guard let header = lines.first else { return [] }
        let names = header.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(names, fields))
        }
    }
}
