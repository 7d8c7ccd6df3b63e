import ArgumentParser
import CacheEngine
import CacheLab
import ClientModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct TuneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract:
            "Recommend the client's defaults: the smallest tiers that cost users no more than a margin over the best.",
        discussion: """
            Replays every candidate as the real client would run it, on every trace (default: \
            every scroll scenario, the month-long ones included; --trace files are streamed), every \
            candidate of a stage a cell of one pass per trace (a disk lifetime that cannot run out \
            within a generated trace is replayed once, as none: the figures are the same), and judges it by what a miss costs \
            the app's users: the bytes they download (summed over the traces) and the time they \
            wait (p95 latency, averaged). It picks:
              1. the disk tier: the smallest capacity (up to --disk-budget, encoded bytes) whose \
            client downloads at most --bytes-margin more than the fewest bytes any candidate \
            downloads, with a p95 at most --latency-margin above the lowest;
              2. the memory tier in front of it: the smallest capacity (up to the memory budget, \
            decoded bytes: --memory-budget, or --memory-share of the --client-device's RAM) that keeps \
            the client within those bounds and leaves at most --memory-margin more requests to the \
            disk and the network than the best memory tier does.
            Ties go to fewer bytes, then the lower p95, then the shorter lifetime.

            Writes to --out-dir:
              recommended-defaults.json    the tiers and the figures they are expected to reach
              recommended-defaults.md      why, the runners-up, and a table against every preset \
            (memory-only, disk-unbounded, Nuke, Kingfisher, SDWebImage, Glide, Coil, Fresco) as it \
            sizes itself on the device, held to the same budgets
            and, with --client-source, the Swift file the client compiles its defaults from \
            (`ClientConfiguration.recommended`, which `ImagePipeline` uses when given none).

            Use a release build: swift run -c release cachelab tune ... (a debug build is over ten \
            times slower).

            Example: cachelab tune --client-device android-go-2gb --disk-budget 32MiB --bytes-margin 0.02
            """
    )

    @OptionGroup var traceSet: TraceSetOptions

    @Option(
        help: ArgumentHelp(
            "The most memory the app gives its image cache, in decoded bytes (default: --memory-share of the device's RAM).",
            valueName: "size"))
    var memoryBudget: String?

    @Option(
        help: ArgumentHelp(
            "The share of the device's RAM the image cache may take in memory, when no --memory-budget is given.",
            valueName: "ratio"))
    var memoryShare = 0.05

    @Option(help: ArgumentHelp("The most disk the app gives its image cache, in encoded bytes.", valueName: "size"))
    var diskBudget = "64MiB"

    @Option(
        help: ArgumentHelp(
            "How many more bytes than the fewest any candidate downloads a pick may cost, as a share (0.05 = 5 % more).",
            valueName: "ratio"))
    var bytesMargin = 0.05

    @Option(
        help: ArgumentHelp(
            "How far above the lowest p95 latency any candidate reaches a pick's may be, in milliseconds.",
            valueName: "ms"))
    var latencyMargin = 0.5

    @Option(
        help: ArgumentHelp(
            "How many more requests than the best memory tier a pick may leave to the disk and the network, as a share (0.05 = 5 % more).",
            valueName: "ratio"))
    var memoryMargin = 0.05

    @Option(help: ArgumentHelp("Policies to try, comma-separated, or 'all'.", valueName: "name[,name...]"))
    var policy = "all"

    @Option(
        help: ArgumentHelp(
            "Disk lifetimes to try (since last use), comma-separated: none or durations.",
            valueName: "none|duration[,...]"))
    var ttl = "none,1d,7d,30d"

    @OptionGroup var network: NetworkOptions

    @Option(
        help: ArgumentHelp(
            "The device the budget and the presets are sized for: \(DeviceProfile.all.map(\.name).joined(separator: ", ")).",
            valueName: "name"))
    var clientDevice = DeviceProfile.iphoneSE2.name

    @Option(help: ArgumentHelp("Directory for recommended-defaults.json and .md.", valueName: "path"))
    var outDir = "results"

    @Flag(
        help:
            "Replace a recommendation made on other traces in --out-dir (without it, such a folder is refused before any replay)."
    )
    var force = false

    @Option(
        help: ArgumentHelp(
            "Also write the client's defaults as Swift source here (in this repo: Sources/RecipeClient/Images/RecommendedDefaults.swift).",
            valueName: "path"))
    var clientSource: String?

    @OptionGroup var jobs: JobOptions

    func validate() throws {
        _ = try memoryBytes()
        _ = try budget(diskBudget, "--disk-budget")
        guard memoryShare > 0, memoryShare <= 1 else { throw ValidationError("--memory-share is a share in (0, 1]") }
        guard bytesMargin >= 0, bytesMargin.isFinite else {
            throw ValidationError("--bytes-margin is a share of at least 0, e.g. 0.05 for 5 % more bytes")
        }
        guard latencyMargin >= 0, latencyMargin.isFinite else {
            throw ValidationError("--latency-margin is milliseconds, at least 0, e.g. 0.5")
        }
        guard memoryMargin >= 0, memoryMargin.isFinite else {
            throw ValidationError("--memory-margin is a share of at least 0, e.g. 0.05")
        }
        if let offline = try ListOptions.policies(policy, onlineOnly: policy == "all").first(where: \.needsFuture) {
            throw ValidationError(
                "\(offline.rawValue) needs the whole trace in advance; a client cannot run it, so tune does not try it")
        }
        guard try !policies().isEmpty else { throw ValidationError("--policy names no policy a client can run") }
        try OutputPath.checkFolder(outDir, option: "--out-dir")
        // The Swift source may go into the --out-dir the tune creates.
        if let clientSource,
            URL(fileURLWithPath: clientSource).deletingLastPathComponent().standardizedFileURL
                != URL(fileURLWithPath: outDir, isDirectory: true).standardizedFileURL
        {
            try OutputPath.checkFile(clientSource, option: "--client-source")
        }
        _ = try ttls()
    }

    private func budget(_ text: String, _ option: String) throws -> Int {
        do {
            guard case .absolute(let bytes) = try CapacitySpec(parsing: text), bytes >= 32 * 1024 else {
                throw ValidationError("\(option) is a size of at least 32KiB, e.g. 16MiB")
            }
            return bytes
        } catch let error as QuantityError {
            throw ValidationError("\(option): \(error)")
        }
    }

    func deviceProfile() throws -> DeviceProfile {
        guard let profile = DeviceProfile.named(clientDevice) else {
            throw ValidationError(
                "unknown --client-device '\(clientDevice)'; choose from \(DeviceProfile.all.map(\.name).joined(separator: ", "))"
            )
        }
        return profile
    }

    /// The memory budget in decoded bytes: `--memory-budget`, or `--memory-share` of the device's RAM.
    func memoryBytes() throws -> Int {
        if let memoryBudget { return try budget(memoryBudget, "--memory-budget") }
        return max(Int(Double(try deviceProfile().ram) * memoryShare), 32 * 1024)
    }

    func policies() throws -> [PolicyKind] {
        try ListOptions.policies(policy, onlineOnly: true).filter { $0 != .ttl }
    }

    func ttls() throws -> [Int64?] { try ListOptions.ttls(ttl) }

    /// Refuses, before any replay, an --out-dir whose recommendation was made on other traces
    /// (the committed one in results/ among them), unless --force.
    private func checkOutDir(holdsNoOtherThan traces: [String]) throws {
        let path = outDir + "/recommended-defaults.json"
        guard !force, let data = FileManager.default.contents(atPath: path),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let theirs = json["traces"] as? [String], Set(theirs) != Set(traces)
        else { return }
        let named = theirs.count <= 3 ? theirs.joined(separator: ", ") : "\(theirs[0]) and \(theirs.count - 1) more"
        throw CLIError(
            "\(outDir) holds the recommendation made on \(named), not on \(traces.joined(separator: ", ")): give another --out-dir, or --force to replace it"
        )
    }

    func run() async throws {
        let sources = try traceSet.sources()
        try checkOutDir(holdsNoOtherThan: sources.map(\.name))
        let request = Tuner.Request(
            memoryBudget: try memoryBytes(),
            diskBudget: try budget(diskBudget, "--disk-budget"),
            bytesMargin: bytesMargin, latencyMargin: latencyMargin, memoryMargin: memoryMargin,
            policies: try policies(), diskTTLs: try ttls(), network: network.network)
        Output.status(
            "tuning on \(Report.counted(sources.count, "trace")): \(Report.counted(request.policies.count, "policy", plural: "policies")), \(Report.counted(request.diskTTLs.count, "disk lifetime")), \(Report.counted(Tuner.capacities(upTo: request.diskBudget).count, "disk capacity", plural: "disk capacities")) and \(Report.counted(Tuner.capacities(upTo: request.memoryBudget).count, "memory capacity", plural: "memory capacities"))"
        )
        let bar = ProgressBar("tune", enabled: jobs.showsProgress)
        let totals = PlanTotals()
        let recommendation = try await Execution.blocking { () throws(TraceError) in
            try Tuner.tune(
                sources, request, workers: jobs.jobs,
                progress: { _, finished, total in bar.update(finished, of: total) }, observer: totals.observer(bar))
        }
        bar.finish()
        Output.status("tune: " + totals.line(workers: jobs.jobs))

        // The presets as each library sizes itself on the device, held to the same budgets.
        let device = try deviceProfile()
        let presets = ClientPreset.allCases.map {
            $0.configuration(device: device, network: network.network)
                .capped(memory: request.memoryBudget, disk: request.diskBudget)
        }
        let comparison = try await Execution.blocking { () throws(TraceError) in
            try TuningReport.summarize([recommendation.client] + presets, on: sources, workers: jobs.jobs)
        }
        let command = Output.commandLine()
        // Each trace's working set, for the README's account of what the answer rests on.
        var workingSets: [Int] = []
        for source in sources { workingSets.append(try await Execution.statistics(source, jobs: jobs).workingSetBytes) }
        let json = TuningReport.json(
            recommendation, expected: comparison[0], presets: Array(comparison.dropFirst()), workingSets: workingSets,
            command: command)
        let markdown = TuningReport.markdown(recommendation, comparison: comparison, command: command)

        try Directory.create(outDir)
        try Output.result(json, to: outDir + "/recommended-defaults.json")
        try Output.result(markdown, to: outDir + "/recommended-defaults.md")
        Output.status("wrote \(outDir)/recommended-defaults.json and .md")
        if let clientSource {
            try Output.result(
                TuningReport.swiftSource(recommendation, jsonPath: outDir + "/recommended-defaults.json"),
                to: clientSource)
            Output.status("wrote \(clientSource): rebuild the client to ship these defaults")
        }
        let summary = comparison[0]
        let bounds = recommendation.bounds
        try Output.result(
            """
            memory  \(recommendation.memory.label)  (serves \(Report.percent(recommendation.memory.memoryShare)) of requests from memory; the best within budget, \(recommendation.bestMemory.label), \(Report.percent(recommendation.bestMemory.memoryShare)))
            disk    \(recommendation.disk.label)  (downloads \(TuningReport.relative(recommendation.disk.bytesDownloaded, to: bounds.fewestBytes)) against the fewest any disk within budget downloads, \(recommendation.bestDisk.label))
            client  downloads \(Report.bytes(summary.bytesDownloaded)) over \(Report.counted(recommendation.traces.count, "trace")), p95 \(Report.decimal(summary.latencyP95, places: 1)) ms, hit ratio \(Report.percent(summary.hitRatio)), byte hit ratio \(Report.percent(summary.byteHitRatio))

            \(TuningReport.table(comparison))
            \(TuningReport.verdict(comparison))

            """, to: nil)
    }
}
