import Foundation
import Testing

@testable import CacheLab
@testable import CacheLabCLI

@Suite("cachelab mrc")
struct MRCCommandTests {
    @Test func theExactLRUCurveEqualsRunAtEveryCapacity() throws {
        // Given the built-in scenario and eight capacities
        let capacities = "100KB,200KB,300KB,500KB,800KB,1MB,1500KB,2MB"

        // When mrc draws LRU's curve and run replays each capacity
        let curve = try Binary.run(["mrc", "--policy", "lru", "--capacity", capacities, "--format", "csv"])
        let runs = try Binary.run(["run", "--policy", "lru", "--capacity", capacities, "--format", "csv"])
        #expect(curve.status == 0 && runs.status == 0)

        // Then each of mrc's lines has run's hits and bytes hit at that capacity
        let points = CSVTable(curve.stdout)
        let results = CSVTable(runs.stdout)
        #expect(points.rows.count == 8 && results.rows.count == 8)
        for point in points.rows {
            let run = try #require(results.rows.first { $0["capacity_bytes"] == point["capacity"] })
            #expect(point["method"] == "stack")
            #expect(point["hits"] == run["hits"], "hits at \(point["capacity"]!)")
            #expect(point["bytes_hit"] == run["bytes_hit"], "bytes hit at \(point["capacity"]!)")
        }
    }

    @Test func aSampleTooSmallForSHARDSIsWarnedAbout() throws {
        // The built-in scenario has about 100 objects: a 10 % sample keeps about 10
        let output = try Binary.run(["mrc", "--policy", "lru", "--sample-rate", "0.1", "--points", "3"])
        #expect(output.status == 0)
        #expect(output.stderr.contains("warning: --sample-rate 0.1 keeps about"))
        let exact = try Binary.run(["mrc", "--policy", "lru", "--points", "3"])
        #expect(!exact.stderr.contains("warning"))
    }

    @Test func aRangeGivesAscendingLogSpacedCapacitiesWithBothEnds() throws {
        func range(_ low: Int, _ high: Int, _ points: Int, _ spacing: CapacityList.Spacing) throws -> [Int] {
            try CapacityList.range(
                from: .absolute(low), to: .absolute(high), points: points, spacing: spacing, startsAtOne: false
            )
            .resolved(for: nil, mode: .bytes)
        }
        #expect(try range(10, 10_000, 4, .log) == [10, 100, 1_000, 10_000])
        #expect(try range(10, 40, 4, .linear) == [10, 20, 30, 40])
        #expect(try range(5, 5, 10, .log) == [5])
    }

    @Test func theDefaultIsTwentyPointsOverTheWholeWorkingSet() throws {
        let output = try Binary.run(["mrc", "--policy", "lru,sieve", "--format", "csv", "--size-mode", "unit"])
        #expect(output.status == 0)
        let rows = CSVTable(output.stdout).rows
        #expect(Set(rows.map { $0["policy"]! }) == ["lru", "sieve"])
        // 20 points, fewer where small unit-mode capacities round to the same count
        let capacities = rows.filter { $0["policy"] == "lru" }.compactMap { Int($0["capacity"]!) }
        #expect(capacities == capacities.sorted() && capacities.count > 10 && capacities.count <= 20)
        // Nothing on stderr in a pipe: no progress bar, no count of points (those with --verbose)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let verbose = try Binary.run(
            ["mrc", "--policy", "lru,sieve", "--format", "csv", "--size-mode", "unit", "--verbose"])
        #expect(verbose.stdout == output.stdout && verbose.stderr.contains("points (2 policies)"))
    }

    @Test(arguments: [
        ["mrc", "--sample-rate", "0"], ["mrc", "--sample-rate", "2"], ["mrc", "--capacity", "1%", "--from", "2%"],
        ["mrc", "--points", "0"], ["mrc", "--policy", "mru"], ["mrc", "--jobs", "0"], ["mrc", "--to", "lots"],
    ])
    func badOptionsAreRejectedBeforeRunning(arguments: [String]) {
        #expect(throws: (any Error).self) { try CacheLabCommand.parseAsRoot(arguments) }
    }
}

/// A CSV document with a header, as dictionaries (no quoted fields in these outputs).
struct CSVTable {
    let rows: [[String: String]]

    init(_ text: String) {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        guard let header = lines.first else {
            rows = []
            return
        }
        rows = lines.dropFirst().map { fields in
            Dictionary(uniqueKeysWithValues: zip(header.map(String.init), fields.map(String.init)))
        }
    }
}
