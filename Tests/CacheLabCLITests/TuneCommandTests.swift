import CacheEngine
import CacheLabTestSupport
import ClientModel
import Foundation
import Testing

@testable import CacheLab

@Suite("cachelab tune")
struct TuneCommandTests {
    @Test func tuneWritesTheDefaultsTheExplanationAndTheClientSource() throws {
        // Given a small tuning run on one scenario
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-tune-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("RecommendedDefaults.swift")
        let output = try Binary.run([
            "tune", "--scenario", "daily-reader", "--policy", "lru,s3fifo", "--ttl", "none,1d", "--memory-budget",
            "128KiB", "--disk-budget", "1MiB", "--bytes-margin", "0.05", "--out-dir", directory.path, "--client-source",
            source.path,
        ])
        #expect(output.status == 0, "\(output.stderr)")

        // Then the JSON holds one answer, for the traces given, naming the tiers within the budgets
        // and what the client is expected to reach
        let data = try Data(contentsOf: directory.appendingPathComponent("recommended-defaults.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let kinds = try #require(root["kinds"] as? [[String: Any]])
        #expect(kinds.count == 1)
        let json = kinds[0]
        #expect(json["kind"] as? String == "custom")
        let memory = try #require(json["memory"] as? [String: Any])
        let disk = try #require(json["disk"] as? [String: Any])
        let expected = try #require(json["expected"] as? [String: Any])
        let memoryCapacity = try #require(memory["capacity_bytes"] as? Int)
        let diskCapacity = try #require(disk["capacity_bytes"] as? Int)
        let diskPolicy = try #require(disk["policy"] as? String)
        #expect(memoryCapacity <= 128 * 1024 && diskCapacity <= 1024 * 1024)
        #expect(["lru", "s3fifo"].contains(diskPolicy))
        #expect(json["traces"] as? [String] == ["daily-reader"])
        // and each trace's working set, every photo once
        let trace = ScrollScenario.named("daily-reader")!.makeTrace()
        #expect(json["working_set_bytes"] as? [Int] == [TraceStatistics(trace).workingSetBytes])

        // and the expected hit ratio is what that client makes on the scenario
        let client = ClientConfiguration(
            name: "recommended",
            memory: TierConfiguration(
                policy: PolicyKind(rawValue: try #require(memory["policy"] as? String))!, capacity: memoryCapacity),
            disk: TierConfiguration(
                policy: PolicyKind(rawValue: diskPolicy)!, capacity: diskCapacity,
                ttl: (disk["ttl_s"] as? Int).map { Int64($0) * 1000 }, ttlMode: .sliding))
        let run = Replay.simulate(ScrollScenario.named("daily-reader")!.makeTrace(), client: client)
        let hitRatio = try #require(expected["hit_ratio"] as? Double)
        #expect(abs(hitRatio - run.hitRatio) < 1e-6)
        #expect(expected["bytes_downloaded"] as? Int == run.bytesDownloaded)

        // and every preset's figures beside it, at its own budget and at the recommended size
        let presets = try #require(json["presets"] as? [[String: Any]])
        #expect(presets.compactMap { $0["client"] as? String } == ClientPreset.allCases.map(\.rawValue))
        #expect(presets.allSatisfy { ($0["bytes_downloaded"] as? Int ?? 0) > 0 })
        #expect(
            presets.allSatisfy { (($0["at_recommended_size"] as? [String: Any])?["bytes_downloaded"] as? Int ?? 0) > 0 }
        )
        // and the disk policies that tie at the chosen size, the recommended one first
        #expect((json["disk_ties"] as? [String])?.first == diskPolicy)

        // and the overview links each answer's evidence, which compares it with every preset
        let overview = try String(
            contentsOf: directory.appendingPathComponent("recommended-defaults.md"), encoding: .utf8)
        #expect(overview.contains("[recommended-defaults-custom.md](recommended-defaults-custom.md)"))
        let markdown = try String(
            contentsOf: directory.appendingPathComponent("recommended-defaults-custom.md"), encoding: .utf8)
        #expect(markdown.contains("## Does the disk policy matter?"))
        for preset in ClientPreset.allCases {
            #expect(markdown.contains("| \(preset.rawValue) |"), "\(preset)")
        }

        // and the terminal ends with the same comparison, each preset beside the recommendation
        #expect(output.stdout.contains("vs recommended"))
        for preset in ClientPreset.allCases {
            #expect(output.stdout.contains("\n\(preset.rawValue) "), "\(preset)")
        }

        // and the Swift source sets the same tiers as the client's defaults
        let swift = try String(contentsOf: source, encoding: .utf8)
        #expect(swift.contains("public static let recommended = ClientConfiguration("))
        #expect(swift.contains("capacity: \(Report.underscored(diskCapacity))"))
        #expect(swift.contains("policy: .\(diskPolicy)"))
    }

    @Test func aKindIsTunedOnItsOwnScenariosAndBudgets() throws {
        // Given a quick tune of one kind, on two policies and one lifetime
        try TemporaryFolder.with { root in
            let output = try Binary.run([
                "tune", "--kind", "small-catalog", "--policy", "lru,fifo", "--ttl", "none", "--out-dir", root,
            ])
            #expect(output.status == 0, "\(output.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: root + "/recommended-defaults.json"))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let kind = try #require((root["kinds"] as? [[String: Any]])?.first)
            // Then it ran on the kind's scenarios, with the kind's disk budget
            #expect(kind["kind"] as? String == "small-catalog")
            #expect(kind["traces"] as? [String] == AppKind.smallCatalog.scenarioNames)
            #expect(kind["disk_budget_bytes"] as? Int == AppKind.smallCatalog.diskBudget)
        }
    }

    @Test func tuneWritesOutsideTheCommittedResultsUnlessTold() throws {
        // The default --out-dir is a folder of its own beside the current one, which git ignores:
        // `cachelab tune` run from the repository's root never rewrites results/.
        let help = try Binary.run(["tune", "--help"])
        #expect(help.stdout.contains("default: cachelab-tune"))
        let ignored = try String(contentsOf: repositoryRoot.appendingPathComponent(".gitignore"), encoding: .utf8)
        #expect(ignored.split(separator: "\n").contains("/cachelab-tune/"))
    }

    @Test func aBudgetBelowTheSmallestCandidateIsRefused() throws {
        let output = try Binary.run(["tune", "--disk-budget", "10KiB"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("--disk-budget is a size of at least 32KiB"))
    }
}
