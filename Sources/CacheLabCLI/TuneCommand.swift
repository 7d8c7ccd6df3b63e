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
            "Recommend the client's defaults, per kind of app: the smallest tiers that cost users no more than a margin over the best.",
        discussion: """
            With no --trace or --scenario, answers for each kind of app (--kind, default all): \
            \(AppKind.allCases.map { "\($0.rawValue) (\($0.scenarioNames.joined(separator: ", ")))" }.joined(separator: "; ")); \
            each kind's scenarios are described by `cachelab trace generate --help`, their parameters' \
            sources in the DocC article Workloads. With --trace files (or --scenario names), one \
            answer on them: tuned with --kind's budgets if one is given, else as "custom" (64 MiB of \
            disk). Every trace is read whole into memory first, so a bad file \
            stops the run before any replay.

            Replays every candidate as the real client would run it, on every trace, and judges it \
            by what a miss costs the app's users: the bytes they download (summed over the traces) \
            and the time they wait (p95 latency, averaged). It picks:
              1. the disk tier: the smallest capacity (up to --disk-budget, encoded bytes; default \
            64 MiB, 256 MiB for endless-feed) whose client downloads at most --bytes-margin more \
            than the fewest bytes any candidate downloads, with a p95 at most --latency-margin \
            above the lowest;
              2. the memory tier in front of it: the smallest capacity (up to the memory budget, \
            decoded bytes: --memory-budget, or --memory-share of the --client-device's RAM) that keeps \
            the client within those bounds and leaves at most --memory-margin more requests to the \
            disk and the network than the best memory tier does.
            Ties go to fewer bytes, then the lower p95, then the shorter lifetime. Disk policies \
            within --bytes-margin of the best at the chosen size tie, and the report says so.

            Writes to --out-dir (default ./cachelab-tune; the committed answer is results/, which \
            needs --force to be replaced):
              recommended-defaults.json         each kind's tiers and the figures they are expected to reach
              recommended-defaults.md           each kind's answer in a row
              recommended-defaults-KIND.md      why, the runners-up, whether the policy matters, and every \
            preset (memory-only, disk-unbounded, Nuke, Kingfisher, SDWebImage, Glide, Coil, Fresco) as it \
            sizes itself on the device, at its own budget and at the recommended size
            and, with --client-source, the Swift file the client compiles its defaults from \
            (`ClientConfiguration.recommended(for:)`; `recommended`, which `ImagePipeline` uses when \
            given none, is the small catalog's).

            Use a release build: swift run -c release cachelab tune ... (a debug build is over ten \
            times slower).

            Examples:
              cachelab tune --kind endless-feed --network 3g
              cachelab tune --trace app.csv --out-dir my-defaults
              cachelab tune --kind endless-feed --scenario feed-regular-month --out-dir /tmp/regular
            """
    )

    @OptionGroup var traceSet: TraceSetOptions

    @Option(
        help: ArgumentHelp(
            "Kinds of app to answer for when no --trace or --scenario is given, comma-separated, or all: \(AppKind.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "kind[,kind...]"))
    var kind = "all"

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

    @Option(
        help: ArgumentHelp(
            "The most disk the app gives its image cache, in encoded bytes (default: the kind's, 64MiB or 256MiB).",
            valueName: "size"))
    var diskBudget: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many more bytes than the fewest any candidate downloads a pick may cost, as a share (0.05 = 5 % more); disk policies this close at the chosen size tie.",
            valueName: "ratio"))
    var bytesMargin = 0.05

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How far above the lowest p95 latency any candidate reaches a pick's may be, in milliseconds.",
            valueName: "ms"))
    var latencyMargin = 0.5

    @Option(
        parsing: .unconditional,
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

    @Option(help: ArgumentHelp("Directory for the recommendation's JSON and Markdown.", valueName: "path"))
    var outDir = "cachelab-tune"

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
        if let diskBudget { _ = try budget(diskBudget, "--disk-budget") }
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
        if try kinds().count > 1, ownTraces {
            throw ValidationError("--trace files and --scenario names are tuned as one kind: give one --kind, or none")
        }
        // Every input is checked before any replay: a trace that cannot be read is named now.
        for path in traceSet.traces { try TraceLoading.checkReadable(path) }
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

    /// Whether traces or scenarios of one's own were given.
    var ownTraces: Bool { !traceSet.traces.isEmpty || traceSet.scenario != "all" }

    /// The kinds named (all by default; none, with one's own traces and no --kind).
    func kinds() throws -> [AppKind] {
        if kind == "all" { return ownTraces ? [] : AppKind.allCases }
        return try kind.split(separator: ",").map { name in
            guard let found = AppKind.named(name.trimmingCharacters()) else {
                throw ValidationError(
                    "unknown --kind '\(name)'; choose from \(AppKind.allCases.map(\.rawValue).joined(separator: ", ")), or all"
                )
            }
            return found
        }
    }

    /// What one answer is tuned on: a kind's scenarios, or the traces given.
    struct Workload {
        var kind: String
        var summary: String
        var sources: [TraceSource]
        var request: Tuner.Request
    }

    /// Each answer's traces (held in memory: read whole and checked before any replay) and request.
    func plan() throws -> [Workload] {
        let memory = try memoryBytes()
        func request(diskBudget defaultDisk: Int, smallestDisk: Int, smallestMemory: Int) throws -> Tuner.Request {
            let disk = try diskBudget.map { try budget($0, "--disk-budget") } ?? defaultDisk
            return Tuner.Request(
                memoryBudget: memory, diskBudget: disk, bytesMargin: bytesMargin, latencyMargin: latencyMargin,
                memoryMargin: memoryMargin, policies: try policies(), diskTTLs: try ttls(), network: network.network,
                smallestDisk: min(smallestDisk, disk), smallestMemory: min(smallestMemory, memory))
        }
        let kinds = try self.kinds()
        if ownTraces {
            // One's own traces, tuned as the kind named (its budgets) or as a kind of their own.
            let sources = try traceSet.sources().map { TraceSource(try TraceLoading.load($0)) }
            let summary = "the traces given: \(sources.map(\.name).joined(separator: ", "))"
            guard let kind = kinds.first else {
                return [
                    Workload(
                        kind: "custom", summary: summary, sources: sources,
                        request: try request(
                            diskBudget: 64 << 20, smallestDisk: Tuner.smallestCapacity,
                            smallestMemory: Tuner.smallestCapacity))
                ]
            }
            return [
                Workload(
                    kind: kind.rawValue, summary: summary, sources: sources,
                    request: try request(
                        diskBudget: kind.diskBudget, smallestDisk: kind.smallestDisk,
                        smallestMemory: kind.smallestMemory))
            ]
        }
        return try kinds.map { kind in
            let sources = kind.scenarios(seed: traceSet.seed).map { scenario in
                var trace = scenario.makeTrace()
                trace.name = scenario.name
                return TraceSource(trace)
            }
            return Workload(
                kind: kind.rawValue, summary: kind.summary, sources: sources,
                request: try request(
                    diskBudget: kind.diskBudget, smallestDisk: kind.smallestDisk, smallestMemory: kind.smallestMemory))
        }
    }

    /// Refuses, before any replay, an --out-dir whose recommendation was made on other traces
    /// (the committed one in results/ among them), unless --force.
    private func checkOutDir(holdsNoOtherThan traces: [String]) throws {
        let path = outDir + "/recommended-defaults.json"
        guard !force, let data = FileManager.default.contents(atPath: path),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return }
        let kinds = json["kinds"] as? [[String: Any]] ?? [json]
        let theirs = kinds.flatMap { $0["traces"] as? [String] ?? [] }
        guard Set(theirs) != Set(traces) else { return }
        let named = theirs.count <= 3 ? theirs.joined(separator: ", ") : "\(theirs[0]) and \(theirs.count - 1) more"
        throw CLIError(
            "\(outDir) holds the recommendation made on \(named), not on \(traces.joined(separator: ", ")): give another --out-dir, or --force to replace it"
        )
    }

    func run() async throws {
        let workloads = try plan()
        try checkOutDir(holdsNoOtherThan: workloads.flatMap { $0.sources.map(\.name) })
        let device = try deviceProfile()
        let bar = ProgressBar("tune", enabled: jobs.showsProgress)
        let totals = PlanTotals()
        var answers: [TuningAnswer] = []
        for (index, workload) in workloads.enumerated() {
            let request = workload.request
            Output.detail(
                "tuning \(workload.kind) on \(Report.counted(workload.sources.count, "trace")): \(Report.counted(request.policies.count, "policy", plural: "policies")), \(Report.counted(request.diskTTLs.count, "disk lifetime")), \(Report.counted(Tuner.capacities(upTo: request.diskBudget, from: request.smallestDisk).count, "disk capacity", plural: "disk capacities")) and \(Report.counted(Tuner.capacities(upTo: request.memoryBudget, from: request.smallestMemory).count, "memory capacity", plural: "memory capacities"))"
            )
            let done = Double(index)
            let count = Double(workloads.count)
            answers.append(
                try await Execution.blocking { () throws(TraceError) in
                    try TuningAnswer.make(
                        kind: workload.kind, summary: workload.summary, sources: workload.sources, request: request,
                        device: device, workers: jobs.jobs,
                        progress: { stage, finished, total in
                            // The memory stage is about a fifth of a kind's work.
                            let share =
                                stage == "disk"
                                ? 0.8 * Double(finished) / Double(total) : 0.8 + 0.2 * Double(finished) / Double(total)
                            bar.update(Int(((done + share) / count) * 1_000), of: 1_000)
                        }, observer: totals.observer())
                })
        }
        bar.finish()
        Output.detail("tune: " + totals.line(workers: jobs.jobs))

        let command = Output.commandLine()
        try Directory.create(outDir)
        try Output.result(TuningReport.json(answers, command: command), to: outDir + "/recommended-defaults.json")
        try Output.result(TuningReport.overview(answers, command: command), to: outDir + "/recommended-defaults.md")
        for answer in answers {
            try Output.result(
                TuningReport.markdown(answer, command: command), to: outDir + "/" + TuningReport.fileName(of: answer))
        }
        Output.status("wrote \(outDir)/recommended-defaults.json and the Markdown beside it")
        if let clientSource {
            try Output.result(
                TuningReport.swiftSource(answers, jsonPath: outDir + "/recommended-defaults.json"), to: clientSource)
            Output.status("wrote \(clientSource): rebuild the client to ship these defaults")
        }
        var text = ""
        for answer in answers {
            let recommendation = answer.recommendation
            text += """
                \(answer.kind): memory \(recommendation.memory.label), disk \(recommendation.disk.label)
                  policy: \(TuningReport.policyVerdict(answer))
                  \(TuningReport.presetVerdict(answer))

                \(TuningReport.table(answer))

                """
        }
        try Output.result(text, to: nil)
    }
}
