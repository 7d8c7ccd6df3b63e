import ArgumentParser
import CacheLab
import Foundation

/// Which share of a sweep this task runs: `--shard I/N`, or a job array's index (Slurm's
/// `SLURM_ARRAY_TASK_ID`, Kubernetes' `JOB_COMPLETION_INDEX` with `--shard-count`). Shared by
/// `compare`, `mrc` and `run`.
struct ShardOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Run shard I of N of the sweep (from 0) and write its cells to --out-dir (default: from a Slurm array or a Kubernetes Indexed Job's environment); `cachelab merge` makes the report.",
            valueName: "I/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "The number of shards when the index comes from the environment (a Kubernetes Indexed Job's completions; Slurm's array size is read).",
            valueName: "N"))
    var shardCount: Int?

    func validate() throws {
        if shard != nil, shardCount != nil {
            throw ValidationError("give either --shard I/N or --shard-count N (with the index from the environment)")
        }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { throw ValidationError("\(error)") }
        }
    }

    /// This task's shard, or nil for the whole sweep on this machine.
    func resolved() throws -> Shard? {
        do {
            if let shard { return try Shard(parsing: shard) }
            return try Shard.fromEnvironment(ProcessInfo.processInfo.environment, count: shardCount)
        } catch {
            throw CLIError("\(error)")
        }
    }
}
