/// One task's share of a sweep: shard `index` of `count` (0-based), as `--shard I/N` gives it or a
/// cluster's job array does.
public struct Shard: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1 else { throw .countBelowOne(count) }
        guard index >= 0, index < count else { throw .indexOutOfRange(index: index, count: count, from: "--shard") }
        self.index = index
        self.count = count
    }

    /// `I/N`, as written after `--shard`.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0].trimmingWhitespace()),
            let count = Int(parts[1].trimmingWhitespace())
        else { throw .unreadable(text) }
        try self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The shard a cluster's job array gives this task, when no `--shard` was given.
    ///
    /// - Slurm (`sbatch --array`): `SLURM_ARRAY_TASK_ID`, counted from `SLURM_ARRAY_TASK_MIN` in
    ///   steps of `SLURM_ARRAY_TASK_STEP`; the count is `SLURM_ARRAY_TASK_COUNT`, or
    ///   `(MAX − MIN) / STEP + 1`.
    /// - Kubernetes (an Indexed Job): `JOB_COMPLETION_INDEX`, with the count given as `count`
    ///   (the Job's `completions`), which the environment does not hold.
    ///
    /// - Parameters:
    ///   - environment: the process's environment.
    ///   - count: the shard count given on the command line (`--shard-count`), if any.
    /// - Returns: nil when neither engine's variables are set and no count was given.
    public static func fromEnvironment(_ environment: [String: String], count: Int?) throws(ShardError) -> Shard? {
        func number(_ name: String) throws(ShardError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingWhitespace()) else {
                throw .environmentUnreadable(name: name, value: text)
            }
            return value
        }
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            let low = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            let step = try number("SLURM_ARRAY_TASK_STEP") ?? 1
            guard step >= 1 else { throw .environmentUnreadable(name: "SLURM_ARRAY_TASK_STEP", value: String(step)) }
            let taskCount: Int
            if let given = try number("SLURM_ARRAY_TASK_COUNT") {
                taskCount = given
            } else if let high = try number("SLURM_ARRAY_TASK_MAX") {
                taskCount = (high - low) / step + 1
            } else {
                throw .slurmCountMissing
            }
            let total = count ?? taskCount
            guard (task - low) % step == 0 else { throw .slurmIndexOffStep(task: task, low: low, step: step) }
            let index = (task - low) / step
            guard total >= 1 else { throw .countBelowOne(total) }
            guard index >= 0, index < total else {
                throw .indexOutOfRange(index: index, count: total, from: "SLURM_ARRAY_TASK_ID=\(task)")
            }
            return try Shard(index: index, count: total)
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            guard let count else { throw .kubernetesCountMissing(index: index) }
            guard count >= 1 else { throw .countBelowOne(count) }
            guard index >= 0, index < count else {
                throw .indexOutOfRange(index: index, count: count, from: "JOB_COMPLETION_INDEX=\(index)")
            }
            return try Shard(index: index, count: count)
        }
        if let count { throw .indexMissing(count: count) }
        return nil
    }
}

/// Why a shard could not be told.
public enum ShardError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(String)
    case countBelowOne(Int)
    case indexOutOfRange(index: Int, count: Int, from: String)
    case environmentUnreadable(name: String, value: String)
    case slurmCountMissing
    case slurmIndexOffStep(task: Int, low: Int, step: Int)
    case kubernetesCountMissing(index: Int)
    case indexMissing(count: Int)

    public var description: String {
        switch self {
        case .unreadable(let text):
            "--shard \(text) is not I/N: give this task's index (from 0) and the number of tasks, e.g. --shard 3/8"
        case .countBelowOne(let count):
            "a sweep is split into at least 1 shard, not \(count)"
        case .indexOutOfRange(let index, let count, let from):
            "shard \(index) of \(count) (from \(from)) does not exist: indices run from 0 to \(count - 1)"
        case .environmentUnreadable(let name, let value):
            "\(name)=\(value) is not a task number"
        case .slurmCountMissing:
            "SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX: give --shard-count"
        case .slurmIndexOffStep(let task, let low, let step):
            "SLURM_ARRAY_TASK_ID=\(task) is not on the array's steps (from \(low) by \(step)): submit the array as --array=0-N"
        case .kubernetesCountMissing(let index):
            "JOB_COMPLETION_INDEX=\(index) is set (a Kubernetes Indexed Job): give --shard-count, the Job's completions"
        case .indexMissing(let count):
            "--shard-count \(count) needs this task's index: --shard I/\(count), SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX"
        }
    }
}
