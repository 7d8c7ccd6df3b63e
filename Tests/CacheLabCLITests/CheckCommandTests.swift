import Foundation
import Testing

@testable import CacheLab

@Suite("cachelab check")
struct CheckCommandTests {
    /// A small baseline written by `compare`: two policies and Belady at two capacities.
    static func makeBaseline() throws -> (directory: URL, baseline: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-check-\(UUID())")
        let made = try Binary.run([
            "compare", "--scenario", "daily-reader", "--policy", "lru,sieve", "--capacity", "10%,40%", "--out-dir",
            directory.path,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        return (directory, directory.appendingPathComponent("compare.csv"))
    }

    @Test func aBaselineOfTheCurrentCodePasses() throws {
        let (directory, baseline) = try Self.makeBaseline()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Binary.run(["check", "--baseline", baseline.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("ok: 6 runs checked against"))
        #expect(output.stderr.contains("0 worse, 0 better"))
    }

    @Test func aRunThatGotWorseFailsTheGateWithADiffTable() throws {
        // Given a baseline whose LRU run at the larger capacity recorded 20 hits more than LRU makes
        let (directory, baseline) = try Self.makeBaseline()
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines = try String(contentsOf: baseline, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let hits = try #require(header.firstIndex(of: "hits"))
        let row = try #require(lines.lastIndex { $0.split(separator: ",")[1] == "lru" })
        var fields = lines[row].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[hits] = String(Int(fields[hits])! + 20)
        lines[row] = fields.joined(separator: ",")
        try (lines.joined(separator: "\n") + "\n").write(to: baseline, atomically: true, encoding: .utf8)

        // When the gate runs, then it fails and names the run, the measure and the change
        let output = try Binary.run(["check", "--baseline", baseline.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("WORSE"))
        #expect(output.stdout.contains("\(row + 1)  daily-reader") && output.stdout.contains("hit ratio"))
        #expect(output.stderr.contains("FAIL: 6 runs checked"))
    }

    @Test func updateRewritesTheBaselineByteForByteWhenNothingChanged() throws {
        let (directory, baseline) = try Self.makeBaseline()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Data(contentsOf: baseline)
        let output = try Binary.run(["check", "--baseline", baseline.path, "--update"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try Data(contentsOf: baseline) == before)
    }

    @Test func aMissingTraceIsNamedWithItsLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: path) }
        let run = Replay.simulate(
            ScrollScenario.named("flinger")!.makeTrace(), RunConfiguration(policy: .lru, capacity: 100_000))
        var result = run
        result.trace = "no-such-trace.csv"
        try Report.csv([result]).write(to: path, atomically: true, encoding: .utf8)
        let output = try Binary.run(["check", "--baseline", path.path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("\(path.path):2: trace 'no-such-trace.csv' is neither a scroll scenario"))
    }
}
