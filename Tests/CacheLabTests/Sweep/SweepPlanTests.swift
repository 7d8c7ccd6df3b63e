import CacheEngine
import CacheLabTestSupport
import Foundation
import Testing

@testable import CacheLab

@Suite("Sweeps: shards, cells as files, merged into one machine's results")
struct SweepPlanTests {
    /// Three generated traces of different lengths, held in memory.
    static let traces: [Trace] = [(3_000, 1), (9_000, 2), (1_500, 3)].map { requests, seed in
        var trace = SyntheticTrace.zipf(requests: requests, objects: 400, alpha: 0.9, seed: UInt64(seed))
        trace.name = "zipf-\(seed)"
        return trace
    }

    static func comparison(
        _ sources: [TraceSource] = traces.map { TraceSource($0) },
        policies: [PolicyKind] = [.lru, .sieve, .s3fifo], points: Int = 4
    ) throws -> SweepPlan {
        let capacities = CapacityList.range(
            from: .percentOfWorkingSet(1), to: .percentOfWorkingSet(100), points: points, spacing: .log,
            startsAtOne: true)
        return try Comparison.sweep(
            sources.map { Comparison.Subject(source: $0, capacities: capacities) },
            Comparison.Request(policies: policies, ttls: [nil, 3_600_000]), command: "cachelab compare (test)")
    }

    /// Runs every shard of `plan` into `directory`, then gathers it.
    static func shardedAndMerged(_ plan: SweepPlan, shards: Int, into directory: String) throws -> [SweepOutput] {
        let store = SweepStore(directory: directory)
        try store.prepare(for: plan.manifest)
        for index in 0..<shards {
            _ = try plan.execute(plan.cells(in: try Shard(index: index, count: shards)), workers: 2, store: store)
        }
        let (manifest, outputs) = try SweepStore.gather([directory])
        #expect(manifest == plan.manifest)
        return outputs
    }

    // MARK: Shards

    @Test(arguments: 1...9)
    func everyCellIsInExactlyOneShard(shards: Int) throws {
        let plan = try Self.comparison()
        var seen: [Int] = []
        for index in 0..<shards {
            let cells = plan.cells(in: try Shard(index: index, count: shards))
            #expect(cells == plan.cells(in: try Shard(index: index, count: shards)), "the same cut every time")
            seen += cells
        }
        #expect(seen.sorted() == Array(plan.cells.indices))
    }

    @Test func shardsReadFewTracesAndShareTheWork() throws {
        // Given 3 traces of 3,000, 9,000 and 1,500 requests in 4 shards
        let plan = try Self.comparison()
        let shards = try (0..<4).map { plan.cells(in: try Shard(index: $0, count: 4)) }

        // Then the cells are cut end to end: a trace is split between neighbouring shards only,
        // so the shards read at most traces + shards − 1 traces in all
        let reads = shards.map { Set($0.map { plan.cells[$0].entry.trace }) }
        #expect(reads.map(\.count).reduce(0, +) <= plan.sources.count + shards.count - 1)
        // And each shard has about a quarter of the work (the longest trace is split)
        let work = shards.map { cells in
            cells.map { plan.cells[$0].weight * Double(Self.traces[plan.cells[$0].entry.trace].count) }.reduce(0, +)
        }
        let total = work.reduce(0, +)
        #expect(work.allSatisfy { abs($0 / total - 0.25) < 0.1 }, "\(work.map { $0 / total })")
        // And a trace's Belady cells (one next-use pass) sit together
        for trace in plan.sources.indices {
            let holders = shards.indices.filter { shard in
                shards[shard].contains { plan.cells[$0].entry.trace == trace && plan.cells[$0].needsFuture }
            }
            #expect(holders.count == 1)
        }
    }

    // MARK: Merged equals one machine

    @Test func aShardedComparisonMergesIntoTheOneMachineResultsOnGeneratedTraces() throws {
        let plan = try Self.comparison()
        let alone = plan.manifest.runs(try plan.outputs(workers: 2))
        try TemporaryFolder.with { folder in
            for shards in [2, 5] {
                let merged = plan.manifest.runs(
                    try Self.shardedAndMerged(plan, shards: shards, into: "\(folder)/\(shards)"))
                #expect(Report.csv(merged) == Report.csv(alone))
                #expect(merged == alone)
            }
        }
        // And the results are the comparison's: Belady then each policy × lifetime, capacities ascending
        #expect(alone.count == 3 * 4 * (1 + 3 * 2))
        #expect(alone.allSatisfy { $0.optimalHits != nil })
    }

    @Test func aShardedComparisonMergesIntoTheOneMachineResultsOnTheCommittedCorpus() throws {
        let corpus = try FileManager.default.contentsOfDirectory(atPath: SharedFixtures.packageRoot + "/traces")
            .filter { $0.hasSuffix(".csv") }.sorted()
        #expect(corpus.count == 8)
        let sources = corpus.map { TraceSource.file(SharedFixtures.packageRoot + "/traces/" + $0) }
        let plan = try Self.comparison(sources, policies: [.lru, .s3fifo, .gdsf], points: 3)
        let alone = plan.manifest.runs(try plan.outputs(workers: 2))
        try TemporaryFolder.with { folder in
            let merged = plan.manifest.runs(try Self.shardedAndMerged(plan, shards: 8, into: folder))
            #expect(Report.csv(merged) == Report.csv(alone))
        }
        #expect(Set(alone.map(\.trace)) == Set(corpus))
    }

    @Test func aShardedCurveMergesIntoTheOneMachineCurveEvenWhenLRUCannotBeStacked() throws {
        // Given a trace whose objects change size (LRU's stack pass gives way to replays)
        let base = Self.traces[0]
        var trace = Trace(name: base.name)
        for index in 0..<base.count {
            trace.append(
                time: base.times[index], key: base.keys[index], size: base.sizes[index] + (index % 7 == 0 ? 1 : 0))
        }
        let request = MissRatioCurve.Request(policies: [.fifo, .lru, .arc], capacities: [], sizeMode: .bytes)
        let capacities = CapacityList.list([.percentOfWorkingSet(2), .absolute(500_000), .percentOfWorkingSet(20)])
        let plan = try request.sweep(TraceSource(trace), capacities: capacities, command: "cachelab mrc", output: "csv")
        let alone = plan.manifest.curve(try plan.outputs(workers: 2))
        try TemporaryFolder.with { folder in
            let merged = plan.manifest.curve(try Self.shardedAndMerged(plan, shards: 3, into: folder))
            #expect(merged == alone)
        }
        #expect(
            alone.map(\.policy) == Array(repeating: .fifo, count: 3) + Array(repeating: .lru, count: 3)
                + Array(repeating: .arc, count: 3))
        #expect(alone.filter { $0.policy == .lru }.allSatisfy { $0.method == .simulated })
        // And each point equals its replay
        for point in alone {
            let replay = Replay.simulate(trace, RunConfiguration(policy: point.policy, capacity: point.capacity))
            #expect(point.hits == replay.hits)
        }
    }

    @Test func aShardedRunAgainstTheOptimumMergesIntoTheOneMachineRuns() throws {
        let request = RunRequest(
            policies: [.lru, .wtinylfu], capacities: .list([.absolute(300_000), .percentOfWorkingSet(5)]),
            versusOptimum: true)
        let plan = try request.sweep(on: TraceSource(Self.traces[1]), output: "table")
        let alone = plan.manifest.runs(try plan.outputs(workers: 2))
        try TemporaryFolder.with { folder in
            let merged = plan.manifest.runs(try Self.shardedAndMerged(plan, shards: 3, into: folder))
            #expect(merged == alone)
        }
        #expect(alone.map(\.configuration.policy) == [.lru, .wtinylfu, .lru, .wtinylfu])
        #expect(alone.allSatisfy { $0.optimalHits != nil && $0.optimalHits! >= $0.hits })
    }

    @Test(arguments: [
        // A list as asked (a capacity met twice kept twice), a range sorted with repeats folded.
        CapacityList.list([.percentOfWorkingSet(5), .absolute(300_000), .percentOfWorkingSet(5)]),
        CapacityList.range(
            from: .absolute(50_000), to: .percentOfWorkingSet(40), points: 5, spacing: .linear, startsAtOne: false),
    ])
    func theOneMachinePlanGivesTheShardedRunsRows(capacities: CapacityList) throws {
        let source = TraceSource(Self.traces[1])
        let request = RunRequest(policies: [.lru, .s3fifo], capacities: capacities, versusOptimum: true)
        let outcome = try request.plan(on: source).execute(workers: 2)
        // A trace in memory gives its statistics with no pass.
        #expect(outcome.statistics == TraceStatistics(Self.traces[1]) && outcome.statisticsPass == nil)
        let direct = outcome.results
        let sweep = try request.sweep(on: source, output: "csv")
        try TemporaryFolder.with { folder in
            let merged = sweep.manifest.runs(try Self.shardedAndMerged(sweep, shards: 2, into: folder))
            #expect(direct == merged)
        }
        let listed = direct.map(\.cache.capacity)
        if case .range = capacities {
            #expect(listed == listed.sorted())
        } else {
            #expect(direct.count == 6)
        }
        #expect(direct.allSatisfy { $0.optimalHits != nil })
        #expect(outcome.optimum.count == capacities.count)
        #expect(outcome.optimum.allSatisfy { $0.configuration.policy == .belady })
    }

    @Test func aClientRunPlannedOnOneMachineEqualsItsSweepCell() throws {
        let source = TraceSource(Self.traces[0])
        let request = RunRequest(
            policies: [], capacities: .list([]),
            clients: [.tiers(memory: TierRequest(policy: .lru, capacity: .percentOfWorkingSet(5)), disk: nil)])
        let direct = try request.plan(on: source).execute(workers: 1).results
        let sweep = try request.sweep(on: source)
        #expect(direct == sweep.manifest.runs(try sweep.outputs(workers: 1)))
        #expect(direct.map(\.label) == ["memory:lru"])
    }

    // MARK: Resubmission

    @Test func aResubmittedSweepComputesOnlyTheMissingCells() throws {
        let plan = try Self.comparison()
        try TemporaryFolder.with { folder in
            let store = SweepStore(directory: folder)
            try store.prepare(for: plan.manifest)
            // Given shards 0 and 1 of 3 done, shard 2 never ran (preempted)
            for index in 0..<2 {
                _ = try plan.execute(plan.cells(in: try Shard(index: index, count: 3)), workers: 1, store: store)
            }
            let missing = plan.cells(in: try Shard(index: 2, count: 3)).count
            #expect(store.present(of: plan.manifest) == plan.cells.count - missing)
            #expect(throws: SweepStoreError.self) { try SweepStore.gather([folder]) }

            // When the whole array is resubmitted
            var computed = 0
            var found = 0
            for index in 0..<3 {
                let outcome = try plan.execute(
                    plan.cells(in: try Shard(index: index, count: 3)), workers: 1, store: store)
                computed += outcome.computed
                found += outcome.found
                if index < 2 { #expect(outcome.tracesRead == 0) }
            }
            // Then only shard 2's cells were computed, and the merge is whole
            #expect(computed == missing && found == plan.cells.count - missing)
            let (_, outputs) = try SweepStore.gather([folder])
            #expect(plan.manifest.runs(outputs) == plan.manifest.runs(try plan.outputs(workers: 2)))
        }
    }

    // MARK: Bad folders

    @Test func aMergeOfAnIncompleteSweepListsTheMissingCells() throws {
        let plan = try Self.comparison()
        try TemporaryFolder.with { folder in
            let store = SweepStore(directory: folder)
            try store.prepare(for: plan.manifest)
            _ = try plan.execute(plan.cells(in: try Shard(index: 0, count: 2)), workers: 1, store: store)
            do {
                _ = try SweepStore.gather([folder])
                Issue.record("an incomplete sweep was merged")
            } catch let SweepStoreError.incomplete(missing, total) {
                #expect(total == plan.cells.count)
                #expect(missing.count == plan.cells(in: try Shard(index: 1, count: 2)).count)
                #expect(missing.allSatisfy { $0.hasPrefix("zipf-") && $0.contains("policy=") })
            }
        }
    }

    @Test func aCellCutShortIsNamedAndNeverMerged() throws {
        let plan = try Self.comparison(points: 2)
        try TemporaryFolder.with { folder in
            _ = try Self.shardedAndMerged(plan, shards: 1, into: folder)
            let path = "\(folder)/\(plan.manifest.fileName(3))"
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
            #expect(throws: SweepStoreError.self) { try SweepStore.gather([folder]) }
            do {
                _ = try SweepStore.gather([folder])
            } catch {
                #expect("\(error)".hasPrefix("\(path) is damaged: not whole JSON"))
            }
            // And a task meeting it says so too, rather than trusting or overwriting it
            #expect(throws: SweepStoreError.self) {
                try plan.execute([3], workers: 1, store: SweepStore(directory: folder))
            }
        }
    }

    @Test func aFolderOfAnotherSweepIsRefusedByTasksAndByTheMerge() throws {
        let plan = try Self.comparison(points: 2)
        let other = try Self.comparison(policies: [.lru, .fifo], points: 2)
        try TemporaryFolder.with { folder in
            _ = try Self.shardedAndMerged(plan, shards: 2, into: "\(folder)/a")
            _ = try Self.shardedAndMerged(other, shards: 1, into: "\(folder)/b")
            // A task of another sweep does not write into it
            #expect(throws: SweepStoreError.self) {
                try SweepStore(directory: "\(folder)/a").prepare(for: other.manifest)
            }
            // Two folders of different sweeps are not merged together
            #expect(throws: SweepStoreError.self) { try SweepStore.gather(["\(folder)/a", "\(folder)/b"]) }
            // Nor is a folder holding another sweep's cells beside its own
            let ours = Set(plan.manifest.cells.indices.map(plan.manifest.fileName))
            let stray = try #require(other.manifest.cells.indices.first { !ours.contains(other.manifest.fileName($0)) })
            try FileManager.default.copyItem(
                atPath: "\(folder)/b/\(other.manifest.fileName(stray))",
                toPath: "\(folder)/a/\(other.manifest.fileName(stray))")
            do {
                _ = try SweepStore.gather(["\(folder)/a"])
                Issue.record("a folder with another sweep's cell was merged")
            } catch let SweepStoreError.strayCells(_, files) {
                #expect(files == [other.manifest.fileName(stray)])
            }
        }
    }

    /// Rewrites the `format` field of the sweep file at `path` (a manifest or a cell) to `version`.
    static func rewriteFormat(of path: String, to version: Int) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let rewritten = text.replacingOccurrences(
            of: "\"format\":\(SweepManifest.formatVersion)", with: "\"format\":\(version)")
        #expect(rewritten != text, "no format field in \(path)")
        try rewritten.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func cellsOfAnotherResultFormatAreRefused() throws {
        let plan = try Self.comparison(points: 2)
        try TemporaryFolder.with { folder in
            _ = try Self.shardedAndMerged(plan, shards: 1, into: folder)
            let path = "\(folder)/\(plan.manifest.fileName(0))"
            try Self.rewriteFormat(of: path, to: 99)
            do {
                _ = try SweepStore.gather([folder])
                Issue.record("a cell of another format was merged")
            } catch let SweepStoreError.otherFormat(found, version) {
                #expect(found == path && version == 99)
            }
        }
    }

    @Test func aFolderAnOlderCachelabWroteIsRefusedByItsFormat() throws {
        // Given a whole sweep whose manifest says an older result format (its cells decode as
        // that version's results, not this one's)
        let plan = try Self.comparison(points: 2)
        try TemporaryFolder.with { folder in
            _ = try Self.shardedAndMerged(plan, shards: 1, into: folder)
            let path = "\(folder)/\(SweepStore.manifestName)"
            try Self.rewriteFormat(of: path, to: SweepManifest.formatVersion - 1)
            // Then neither a merge nor another task reads it: both name the manifest and its version
            for attempt in ["merge", "task"] {
                do {
                    if attempt == "merge" {
                        _ = try SweepStore.gather([folder])
                    } else {
                        try SweepStore(directory: folder).prepare(for: plan.manifest)
                    }
                    Issue.record("a \(attempt) read a folder of an older format")
                } catch let SweepStoreError.otherFormat(found, version) {
                    #expect(found == path && version == SweepManifest.formatVersion - 1)
                }
            }
        }
    }

    @Test func aCellIsNamedByItsTraceAndKeyNotByWhereTheTraceLies() throws {
        // The same trace at two paths (two nodes' mounts) is the same trace
        try TemporaryFolder.with { folder in
            let source = SharedFixtures.packageRoot + "/traces/daily-reader.csv"
            try FileManager.default.createDirectory(atPath: "\(folder)/mount", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: "\(folder)/mount/daily-reader.csv")
            let here = try TraceIdentity(.file(source))
            let there = try TraceIdentity(.file("\(folder)/mount/daily-reader.csv"))
            #expect(here == there)
            // And a trace one byte longer is another
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(folder)/mount/daily-reader.csv"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("1,x,1\n".utf8))
            try handle.close()
            #expect(try TraceIdentity(.file("\(folder)/mount/daily-reader.csv")) != here)
        }
    }
}
