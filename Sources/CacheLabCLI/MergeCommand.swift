import ArgumentParser
import CacheLab
import Foundation

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Gather a sharded sweep's cells into the report one machine writes.",
        discussion: """
            A sweep (`compare`, `mrc`, or `run` with several configurations) split into shards \
            (--shard I/N, or a Slurm array's or a Kubernetes Indexed Job's index) writes each cell \
            it computes to its --out-dir as a file named by what determines the result, beside \
            sweep.json, the sweep's manifest. A preempted or failed task is simply resubmitted: \
            cells already there are not computed again.

            merge reads one or more such folders (shards may write to folders of their own) and \
            writes what the command would have written on one machine, byte for byte: for \
            compare, compare.csv, the charts and README.md in --out-dir, and the rankings on \
            stdout; for mrc and run, their table or CSV on stdout or to --out. It needs neither \
            the traces nor the command line: the manifest holds what the report needs.

            It refuses, writing nothing, when a cell is missing (it lists them), when the folders \
            hold different sweeps or cells of another sweep or another result format, or when a \
            cell file is cut short.

            Example (a Slurm array of 8 tasks, then the report):
              sbatch --array=0-7 scripts/cluster/sweep.sbatch
              cachelab merge /shared/sweeps/twitter --out-dir results/twitter
            """
    )

    @Argument(help: ArgumentHelp("Folders holding the sweep's cells (the shards' --out-dir).", valueName: "dir"))
    var directories: [String]

    @Option(
        help: ArgumentHelp(
            "Where a comparison's compare.csv, charts and README.md go (default: results/compare for the scroll scenarios, compare/NAME for other traces).",
            valueName: "path"))
    var outDir: String?

    @Flag(help: "Replace a comparison of other traces in --out-dir.")
    var force = false

    @Flag(help: "Draw every policy in a comparison's charts, as compare --all-series does.")
    var allSeries = false

    @Option(
        help: ArgumentHelp(
            "Where mrc's and run's table or CSV goes (default: stdout); written whole or not at all.",
            valueName: "path"))
    var out: String?

    func validate() throws {
        guard !directories.isEmpty else { throw ValidationError("give the folder (or folders) the shards wrote to") }
        try OutputPath.checkFile(out, option: "--out")
        if let outDir { try OutputPath.checkFolder(outDir, option: "--out-dir") }
        for directory in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
                throw ValidationError("\(directory) does not exist: give the folder the shards wrote to")
            }
            guard isDirectory.boolValue else {
                throw ValidationError("\(directory) is a file: give the folder the shards wrote to")
            }
        }
    }

    func run() async throws {
        let directories = directories
        let (manifest, outputs) = try await Execution.blocking { try SweepStore.gather(directories) }
        Output.status(
            "merged \(outputs.count) cells of a \(manifest.kind.rawValue) sweep on \(manifest.traces.count) trace\(manifest.traces.count == 1 ? "" : "s"): \(manifest.command)"
        )
        switch manifest.kind {
        case .compare:
            let traces = manifest.traces.map(\.name)
            let outDir = ComparisonFolder.resolve(
                self.outDir, traces: traces, fromFiles: !ComparisonFolder.areScenarios(traces))
            try ComparisonFolder.check(outDir, traces: traces, force: force)
            try Emitter.comparison(
                manifest.runs(outputs), command: manifest.command, outDir: outDir, allSeries: allSeries)
        case .mrc:
            try format(manifest).write(manifest.curve(outputs), to: out)
        case .run:
            try format(manifest).write(manifest.runs(outputs), to: out)
        }
    }

    private func format(_ manifest: SweepManifest) throws -> OutputFormat {
        guard let format = OutputFormat(rawValue: manifest.output) else {
            throw CLIError(
                "the sweep's manifest names an output format this cachelab does not know: '\(manifest.output)'")
        }
        return format
    }
}
