import Testing

@testable import CacheLab

@Suite("Shard: I/N, or a job array's environment")
struct ShardTests {
    @Test func iOfNIsParsed() throws {
        #expect(try Shard(parsing: "3/8") == Shard(index: 3, count: 8))
        #expect(try Shard(parsing: "0/1") == Shard(index: 0, count: 1))
        #expect(try Shard(parsing: "3/8").description == "3/8")
    }

    @Test(arguments: [
        ("3/2", "shard 3 of 2 (from --shard) does not exist: indices run from 0 to 1"),
        ("2/2", "shard 2 of 2 (from --shard) does not exist: indices run from 0 to 1"),
        ("0/0", "a sweep is split into at least 1 shard, not 0"),
        ("-1/4", "shard -1 of 4 (from --shard) does not exist: indices run from 0 to 3"),
        ("3", "--shard 3 is not I/N: give this task's index (from 0) and the number of tasks, e.g. --shard 3/8"),
        ("a/b", "--shard a/b is not I/N: give this task's index (from 0) and the number of tasks, e.g. --shard 3/8"),
        (
            "1/2/3",
            "--shard 1/2/3 is not I/N: give this task's index (from 0) and the number of tasks, e.g. --shard 3/8"
        ),
    ])
    func aShardThatDoesNotExistIsRefusedInWords(text: String, message: String) {
        #expect(throws: ShardError.self) { try Shard(parsing: text) }
        do {
            _ = try Shard(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func slurmsArrayGivesTheIndexAndTheCount() throws {
        // sbatch --array=0-7: the count is given
        #expect(
            try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "8"], count: nil)
                == Shard(index: 5, count: 8))
        // sbatch --array=1-8: counted from the array's first task
        #expect(
            try Shard.fromEnvironment(
                ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "8"], count: nil)
                == Shard(index: 0, count: 8))
        // sbatch --array=0-14:2: eight tasks in steps of two
        #expect(
            try Shard.fromEnvironment(
                [
                    "SLURM_ARRAY_TASK_ID": "14", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "14",
                    "SLURM_ARRAY_TASK_STEP": "2",
                ], count: nil) == Shard(index: 7, count: 8))
    }

    @Test func kubernetesGivesTheIndexAndTheCommandLineTheCount() throws {
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3"], count: 4) == Shard(index: 3, count: 4))
        #expect(throws: ShardError.kubernetesCountMissing(index: 3)) {
            try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3"], count: nil)
        }
    }

    @Test func noEngineMeansNoShard() throws {
        #expect(try Shard.fromEnvironment(["HOME": "/root"], count: nil) == nil)
        #expect(throws: ShardError.indexMissing(count: 4)) { try Shard.fromEnvironment([:], count: 4) }
    }

    @Test func anEnvironmentIndexOutsideTheCountIsRefused() {
        #expect(throws: ShardError.indexOutOfRange(index: 4, count: 4, from: "JOB_COMPLETION_INDEX=4")) {
            try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "4"], count: 4)
        }
        #expect(throws: ShardError.indexOutOfRange(index: 9, count: 8, from: "SLURM_ARRAY_TASK_ID=9")) {
            try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_COUNT": "8"], count: nil)
        }
        #expect(throws: ShardError.environmentUnreadable(name: "SLURM_ARRAY_TASK_ID", value: "x")) {
            try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "8"], count: nil)
        }
        #expect(throws: ShardError.slurmCountMissing) {
            try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "1"], count: nil)
        }
        #expect(throws: ShardError.slurmIndexOffStep(task: 3, low: 0, step: 2)) {
            try Shard.fromEnvironment(
                [
                    "SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "14",
                    "SLURM_ARRAY_TASK_STEP": "2",
                ],
                count: nil)
        }
    }
}
