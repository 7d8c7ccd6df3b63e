import Foundation
import Testing

@testable import CacheLab

@Suite("cachelab compare")
struct CompareCommandTests {
    @Test func aComparisonOfATraceFileGoesToAFolderNamedAfterItNotToTheCommittedResults() throws {
        // Given a trace file, compared from a folder that has a results/compare of its own
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-compare-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let committed = directory.appendingPathComponent("results/compare")
        try FileManager.default.createDirectory(at: committed, withIntermediateDirectories: true)
        try "kept\n".write(to: committed.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let trace = directory.appendingPathComponent("mine.csv")
        var generated = ScrollScenario.named("daily-reader")!.makeTrace()
        generated.name = "mine"
        try TraceWriter.write(generated, format: .csv, to: trace.path)

        // When it is compared with no --out-dir
        let output = try Binary.run(
            ["compare", "--trace", trace.path, "--policy", "lru", "--points", "3"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")

        // Then the comparison is in compare/mine, and results/compare is as it was
        let written = directory.appendingPathComponent("compare/mine")
        #expect(FileManager.default.fileExists(atPath: written.appendingPathComponent("compare.csv").path))
        #expect(try String(contentsOf: committed.appendingPathComponent("README.md"), encoding: .utf8) == "kept\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: committed.path) == ["README.md"])
    }

    @Test func aFolderHoldingAnotherComparisonIsRefusedBeforeAnyReplayUnlessForced() throws {
        // Given a folder holding the comparison of daily-reader
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-compare-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try Binary.run([
            "compare", "--scenario", "daily-reader", "--policy", "lru", "--points", "3", "--out-dir", directory.path,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let csv = try String(contentsOf: directory.appendingPathComponent("compare.csv"), encoding: .utf8)

        // When flinger is compared into it
        let refused = try Binary.run([
            "compare", "--scenario", "flinger", "--policy", "lru", "--points", "3", "--out-dir", directory.path,
        ])

        // Then it is refused in one line, before any replay, and the folder is as it was
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains(
                "\(directory.path) holds the comparison of daily-reader, not of flinger: give another --out-dir, or --force to replace it"
            ))
        #expect(!refused.stderr.contains("comparing"))
        #expect(try String(contentsOf: directory.appendingPathComponent("compare.csv"), encoding: .utf8) == csv)

        // And with --force it is replaced, daily-reader's charts with it
        let forced = try Binary.run([
            "compare", "--scenario", "flinger", "--policy", "lru", "--points", "3", "--out-dir", directory.path,
            "--force",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.contains("flinger-miss-ratio.svg"))
        #expect(!names.contains { $0.hasPrefix("daily-reader") })
    }

    @Test func oneCommandWritesTheCSVTheChartsAndTheReport() throws {
        // Given two scenarios, two policies and three capacities
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-compare-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Binary.run([
            "compare", "--scenario", "daily-reader,flinger", "--policy", "lru,s3fifo", "--points", "3",
            "--out-dir", directory.appendingPathComponent("nested").path,
        ])
        #expect(output.status == 0, "\(output.stderr)")

        // Then the CSV has Belady and both policies at each capacity of each trace, opt_ratio filled
        let nested = directory.appendingPathComponent("nested")
        let csv = CSVTable(try String(contentsOf: nested.appendingPathComponent("compare.csv"), encoding: .utf8))
        #expect(csv.rows.count == 2 * 3 * 3)
        #expect(Set(csv.rows.map { $0["trace"]! }) == ["daily-reader", "flinger"])
        #expect(csv.rows.allSatisfy { Double($0["opt_ratio"] ?? "") != nil })
        #expect(csv.rows.filter { $0["policy"] == "belady" }.allSatisfy { $0["opt_ratio"] == "1.000000" })

        // And three charts per trace, each embedded in the report
        let report = try String(contentsOf: nested.appendingPathComponent("README.md"), encoding: .utf8)
        for trace in ["daily-reader", "flinger"] {
            for chart in ["miss-ratio", "byte-hit-ratio", "latency"] {
                let name = "\(trace)-\(chart).svg"
                let svg = try String(contentsOf: nested.appendingPathComponent(name), encoding: .utf8)
                #expect(svg.hasPrefix("<svg"))
                #expect(report.contains("![\(name)](\(name))"))
            }
        }
        // And the ranking on stdout, each trace with its ceiling
        #expect(output.stdout.components(separatedBy: "belady (offline optimum)").count == 3)
        #expect(output.stderr.contains("wrote 8 files to"))
    }

    @Test func liveRunsChartTheRealClientsLatencyAndHitAsTheSimulatorDoes() throws {
        // Given a comparison with --live on one scenario
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-compare-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Binary.run([
            "compare", "--scenario", "daily-reader", "--policy", "lru,sieve", "--points", "3", "--live",
            "--out-dir", directory.path,
        ])
        #expect(output.status == 0, "\(output.stderr)")

        // Then each policy ran live at the middle capacity, with the hits of the same client
        // simulated (a disk tier, rebuilt in last-use order at each relaunch as the real one is);
        // not paced, the live replay asks for photos still downloading, which the simulator's
        // trace times do not: its delayed hits are simulated hits
        func served(_ row: [String: String]) -> Int { Int(row["hits"]!)! + Int(row["delayed_hits"]!)! }
        let rows = CSVTable(try String(contentsOf: directory.appendingPathComponent("compare.csv"), encoding: .utf8))
            .rows
        let liveRows = rows.filter { $0["mode"] == "live" }
        #expect(liveRows.map { $0["policy"]! } == ["lru", "sieve"])
        for live in liveRows {
            let simulated = try Binary.run([
                "run", "--scenario", "daily-reader", "--disk-policy", live["policy"]!, "--disk-capacity",
                live["capacity_bytes"]!, "--format", "csv",
            ])
            let client = try #require(CSVTable(simulated.stdout).rows.first)
            #expect(served(live) == served(client), "\(live["policy"]!)")
            #expect(live["misses"] == client["misses"])
            #expect(live["failures"] == "0")
        }
        #expect(output.stderr.contains("outcome agreeing with the simulator's for 501 of 501 (0 delayed hits in both)"))
        // And its chart is written and embedded
        let chart = "daily-reader-live-latency.svg"
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(chart).path))
        let report = try String(contentsOf: directory.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(report.contains("![\(chart)](\(chart))"))
    }

    @Test(arguments: [
        ["compare", "--scenario", "nope"], ["compare", "--ttl", "soon"], ["compare", "--policy", "mru"],
        ["compare", "--trace", "x.csv", "--scenario", "flinger"], ["compare", "--capacity", "1%", "--points", "3"],
        ["compare", "--server-latency", "20"], ["compare", "--live", "--size-mode", "unit"],
    ])
    func badOptionsAreRefusedWithAnExplanation(arguments: [String]) throws {
        let output = try Binary.run(arguments)
        #expect(output.status != 0)
        #expect(output.stderr.contains("Error:"))
    }
}
