import CacheLabTestSupport
import Foundation
import Testing

@testable import CacheLab

@Suite("Sharded sweeps and cachelab merge, as the built binary")
struct ShardedSweepCommandTests {
    static let compare = [
        "compare", "--scenario", "daily-reader,flinger,detail-browser", "--policy", "lru,sieve", "--points", "3",
    ]

    /// Every file of a folder, by name.
    static func files(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
        return files
    }

    @Test func aComparisonInShardsMergesIntoTheFilesOneMachineWrites() throws {
        try TemporaryFolder.with { folder in
            // Given the comparison on one machine
            let alone = try Binary.run(Self.compare + ["--out-dir", "\(folder)/alone", "--jobs", "1"])
            #expect(alone.status == 0, "\(alone.stderr)")

            // When it runs as 4 shards: two by --shard, two by a Slurm array's environment
            for index in 0..<2 {
                let shard = try Binary.run(Self.compare + ["--shard", "\(index)/4", "--out-dir", "\(folder)/cells"])
                #expect(shard.status == 0, "\(shard.stderr)")
                #expect(shard.stderr.contains("shard \(index)/4: computed"))
            }
            for index in 2..<4 {
                let shard = try Binary.run(
                    Self.compare + ["--out-dir", "\(folder)/cells"],
                    environment: ["SLURM_ARRAY_TASK_ID": "\(index)", "SLURM_ARRAY_TASK_COUNT": "4"])
                #expect(shard.status == 0, "\(shard.stderr)")
            }
            let merged = try Binary.run(["merge", "\(folder)/cells", "--out-dir", "\(folder)/merged"])
            #expect(merged.status == 0, "\(merged.stderr)")

            // Then the merge wrote the same files, byte for byte, and printed the same rankings
            #expect(try Self.files("\(folder)/merged") == Self.files("\(folder)/alone"))
            #expect(merged.stdout == alone.stdout)
            #expect(try Self.files("\(folder)/merged").count == 1 + 1 + 3 * 3)
        }
    }

    @Test func aCurveAndARunInShardsMergeIntoTheirOneMachineOutput() throws {
        try TemporaryFolder.with { folder in
            let sweeps = [
                ["mrc", "--policy", "lru,fifo,s3fifo", "--points", "5", "--format", "csv"],
                ["run", "--policy", "lru,arc", "--capacity", "100KB,5%,1MB", "--vs-opt", "--format", "csv"],
                ["run", "--client", "nuke,kingfisher", "--trace", SharedFixtures.packageRoot + "/traces/flinger.csv"],
            ]
            for (number, sweep) in sweeps.enumerated() {
                let alone = try Binary.run(sweep)
                #expect(alone.status == 0, "\(alone.stderr)")
                for index in 0..<3 {
                    let shard = try Binary.run(
                        sweep + ["--shard-count", "3", "--out-dir", "\(folder)/\(number)"],
                        environment: ["JOB_COMPLETION_INDEX": "\(index)"])
                    #expect(shard.status == 0, "\(shard.stderr)")
                }
                let merged = try Binary.run(["merge", "\(folder)/\(number)"])
                #expect(merged.status == 0, "\(merged.stderr)")
                #expect(merged.stdout == alone.stdout, "\(sweep)")
            }
        }
    }

    @Test func badShardsAreRefusedInWords() throws {
        let outOfRange = try Binary.run(Self.compare + ["--shard", "3/2", "--out-dir", "/tmp/unused"])
        #expect(outOfRange.status != 0)
        #expect(outOfRange.stderr.contains("shard 3 of 2 (from --shard) does not exist: indices run from 0 to 1"))
        let none = try Binary.run(Self.compare + ["--shard", "0/0"])
        #expect(none.stderr.contains("a sweep is split into at least 1 shard, not 0"))
        let environment = try Binary.run(
            Self.compare + ["--out-dir", "/tmp/unused"],
            environment: ["SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "8"])
        #expect(environment.status != 0)
        #expect(environment.stderr.contains("shard 8 of 8 (from SLURM_ARRAY_TASK_ID=8) does not exist"))
        let kubernetes = try Binary.run(Self.compare, environment: ["JOB_COMPLETION_INDEX": "2"])
        #expect(
            kubernetes.stderr.contains("JOB_COMPLETION_INDEX=2 is set (a Kubernetes Indexed Job): give --shard-count"))
        let live = try Binary.run(["run", "--mode", "live", "--shard", "0/2"])
        #expect(live.stderr.contains("cannot be sharded"))
        let noFolder = try Binary.run(["mrc", "--shard", "0/2"])
        #expect(noFolder.stderr.contains("a shard writes its cells to a folder: give --out-dir"))
    }

    @Test func aMergeOfAnIncompleteSweepWritesNothingAndListsWhatIsMissing() throws {
        try TemporaryFolder.with { folder in
            let shard = try Binary.run(Self.compare + ["--shard", "1/3", "--out-dir", "\(folder)/cells"])
            #expect(shard.status == 0, "\(shard.stderr)")
            let merged = try Binary.run(["merge", "\(folder)/cells", "--out-dir", "\(folder)/merged"])
            #expect(merged.status != 0)
            #expect(merged.stderr.contains("the sweep is not complete:"))
            #expect(merged.stderr.contains("policy="))
            #expect(!FileManager.default.fileExists(atPath: "\(folder)/merged"))

            let empty = try Binary.run(["merge", folder])
            #expect(empty.stderr.contains("holds no sweep (no sweep.json)"))
        }
    }
}
