import ArgumentParser
import CacheLab
import CacheLabRecorder
import Foundation
import LiveReplay

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay a trace through one or more cache policies and report hits, bytes and latency.",
        discussion: """
            With no --trace, replays the built-in recipe-list scenario (seeded by --seed).
            Several policies or capacities give one run each: --policy lru,fifo,lfu --capacity 1%,5%,10%.

            --mode live replays through the real client instead: its image pipeline (a memory tier, \
            a SQLite disk tier, URLSession) against a fixture server over loopback HTTP, with \
            wall-clock latency per tier and the bytes the server counted. A single-tier run is then a \
            client with that one tier (--tier). Each request's outcome is checked against the \
            simulator's and the agreement printed.

            Policies:
            --vs-opt also runs Belady's offline optimum at each capacity and reports opt_ratio, the \
            hit ratio as a share of the optimum's. Belady needs the whole trace in advance, so it \
            runs only in the single-tier simulator.

            \(PolicyKind.allCases.map { "  \($0.rawValue.padding(6))  \($0.summary)" }.joined(separator: "\n"))

            Network profiles (a miss costs one round trip plus transfer):
            \(NetworkProfile.allCases.map { "  \($0.rawValue.padding(9))  \($0.summary)" }.joined(separator: "\n"))
            """
    )

    @Option(help: ArgumentHelp("Policies to run, comma-separated, or 'all'.", valueName: "name[,name...]"))
    var policy = "lru"

    @Option(
        help: ArgumentHelp(
            "Capacity: bytes (4096), decimal (20MB) or binary (512KiB) units, an object count in unit mode, or a share of the trace's working set (10%). Comma-separated for several. Default: 512KiB for the built-in scenario (a quarter of its working set), 10% for a --trace.",
            valueName: "size[,size...]"))
    var capacity: String?

    @Option(help: "Count capacity in bytes, or in objects (every object costs 1).")
    var sizeMode: SizeMode = .bytes

    @Option(
        help: ArgumentHelp(
            "Entry lifetime (300s, 5m, 12h, 7d); works with every policy. 'ttl' defaults to 300s.",
            valueName: "duration"))
    var ttl: String?

    @Option(help: "Start the lifetime at insertion (fixed) or at the last use (sliding).")
    var ttlMode: TTLMode = .fixed

    @Option(
        help: ArgumentHelp(
            "On overflow, evict down to this fraction of the capacity (size: 0.7 as Nuke; Kingfisher and SDWebImage use 0.5).",
            valueName: "ratio"))
    var trimRatio: Double?

    @Option(
        help: ArgumentHelp(
            "Trace file, or a recording's folder, to replay (default: the built-in recipe-list scenario).",
            valueName: "path"))
    var trace: String?

    @OptionGroup var reading: TraceReadingOptions

    @Option(help: "Network profile of the latency model.")
    var network: NetworkProfile = .wifi

    @Option(help: "Which cache tier the run models: disk survives relaunches, memory is emptied by them.")
    var tier: TierKind = .disk

    @Flag(
        inversion: .prefixedNo,
        help:
            "Model every request's latency (--no-latency skips it for speed on big traces; the latency columns are then 0)."
    )
    var latency = true

    @Option(
        help: ArgumentHelp(
            "Replay two tiers as these clients ship them, comma-separated or 'all': \(ClientPreset.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "preset[,preset...]"))
    var client: String?

    @Option(
        help: ArgumentHelp(
            "Two tiers of your own: the memory tier's policy (with --memory-capacity).", valueName: "name"))
    var memoryPolicy: PolicyKind?

    @Option(help: ArgumentHelp("The memory tier's capacity (a size or a share of the working set).", valueName: "size"))
    var memoryCapacity: String?

    @Option(
        help: ArgumentHelp("Two tiers of your own: the disk tier's policy (with --disk-capacity).", valueName: "name"))
    var diskPolicy: PolicyKind?

    @Option(help: ArgumentHelp("The disk tier's capacity (a size or a share of the working set).", valueName: "size"))
    var diskCapacity: String?

    @Option(
        help: ArgumentHelp(
            "The device's memory, for the presets' memory limits (Nuke: 15%, Kingfisher: 1/4).", valueName: "size"))
    var deviceMemory = "4GiB"

    @Option(
        help: ArgumentHelp(
            "sim: the simulator (fast, modelled latency); live: the real client pipeline against a fixture server."))
    var mode: RunMode = .sim

    @OptionGroup(title: "Live replay (--mode live)") var live: LiveRunOptions

    @Flag(
        help:
            "Also run Belady's optimum at each capacity and report opt_ratio = hit ratio ÷ Belady's (simulator, single tier)."
    )
    var vsOpt = false

    @Option(help: "Output: a table for people or CSV for scripts (stdout then holds only CSV).")
    var format: OutputFormat = .table

    @Option(help: ArgumentHelp("Write the output to this file instead of stdout.", valueName: "path"))
    var out: String?

    func validate() throws {
        if let trimRatio, !(trimRatio > 0 && trimRatio <= 1) {
            throw ValidationError("--trim-ratio must be greater than 0 and at most 1, e.g. 0.7")
        }
        if reading.columns != nil, trace == nil {
            throw ValidationError("--columns applies to a --trace in libCacheSim's CSV format")
        }
        _ = try policies()
        _ = try capacities()
        _ = try ttlMilliseconds()
        if mode == .sim, live.isSet {
            throw ValidationError("--server, --speed, --concurrency, --store and the server options need --mode live")
        }
        if mode == .live, sizeMode == .unit {
            throw ValidationError("--mode live counts bytes: --size-mode unit is for the simulator only")
        }
        let twoTiers =
            client != nil || memoryPolicy != nil || diskPolicy != nil || memoryCapacity != nil
            || diskCapacity != nil
        let offline = [memoryPolicy, diskPolicy].compactMap { $0 } + (mode == .live ? try policies() : [])
        if let kind = offline.first(where: \.needsFuture) {
            throw ValidationError(Self.needsFutureMessage(kind))
        }
        if vsOpt, twoTiers || mode == .live {
            throw ValidationError(
                "--vs-opt compares with Belady, which needs the whole trace in advance; it runs only in the simulator (--mode sim, single tier)"
            )
        }
    }

    /// What the CLI says when a policy that needs the future is asked of a client or a live replay.
    static func needsFutureMessage(_ kind: PolicyKind) -> String {
        "\(kind.rawValue) needs the whole trace in advance; it runs only in the simulator (--mode sim, single tier)"
    }

    func run() throws {
        let loaded = try reading.load(path: trace)
        let statistics = TraceStatistics(loaded)
        Output.status(
            "trace \(loaded.name): \(statistics.requests) requests, \(statistics.uniqueObjects) objects, working set \(statistics.workingSetBytes) bytes"
        )

        if mode == .live {
            return try runLive(loaded, statistics)
        }
        var results: [RunResult] = []
        for client in try clients(statistics) {
            let start = Output.monotonicSeconds()
            let result = Replay.simulate(loaded, client: client)
            let seconds = Output.monotonicSeconds() - start
            Output.status("\(client.name): replayed in \(Report.decimal(seconds * 1000, places: 1)) ms")
            results.append(result)
        }
        if !results.isEmpty { return try emit(results) }
        let sizes = try capacities().map { capacitySpec in
            let capacity = capacitySpec.resolved(for: statistics, mode: sizeMode)
            guard capacity > 0 else {
                let unit = sizeMode == .unit ? "objects" : "bytes"
                throw CLIError(
                    "--capacity \(capacitySpec) of this trace's working set (\(statistics.workingSet(in: sizeMode)) \(unit)) is 0 \(unit); give a larger share or an absolute capacity"
                )
            }
            return capacity
        }
        let kinds = try policies()
        let ttl = try ttlMilliseconds()
        let configurations = sizes.flatMap { capacity in
            kinds.map { kind in
                RunConfiguration(
                    policy: kind, capacity: capacity, sizeMode: sizeMode, ttl: ttl, ttlMode: ttlMode,
                    trimRatio: trimRatio, network: network, tier: tier)
            }
        }
        // Every run on its own core; results in the order asked for.
        let optima = vsOpt ? ParallelSweep.map(sizes.count) { optimalHits(loaded, capacity: sizes[$0]) } : []
        let bar = ProgressBar("run", enabled: ProgressBar.onTerminal && configurations.count > 1)
        let total = configurations.count
        results = ParallelSweep.map(total, progress: { bar.update($0, of: total) }) { index in
            let configuration = configurations[index]
            let start = Output.monotonicSeconds()
            var result = Replay.simulate(loaded, configuration, latency: latency)
            let seconds = Output.monotonicSeconds() - start
            if vsOpt { result.optimalHits = optima[index / kinds.count] }
            let rate = seconds > 0 ? Double(result.requests) / seconds / 1e6 : 0
            Output.status(
                "\(configuration.policy.rawValue) at \(configuration.capacity): replayed in \(Report.decimal(seconds * 1000, places: 1)) ms (\(Report.decimal(rate, places: 1)) M requests/s)"
            )
            return result
        }
        try emit(results)
    }

    /// Belady's hits on `trace` at `capacity`, in this run's size mode and tier (so relaunches
    /// empty a memory tier for it too): the optimum `--vs-opt` divides by.
    private func optimalHits(_ trace: Trace, capacity: Int) -> Int {
        let start = Output.monotonicSeconds()
        let optimum = Replay.simulate(
            trace,
            RunConfiguration(policy: .belady, capacity: capacity, sizeMode: sizeMode, network: network, tier: tier),
            latency: false)
        let seconds = Output.monotonicSeconds() - start
        Output.status(
            "belady at \(capacity) (the optimum for --vs-opt): \(Report.grouped(optimum.hits)) hits, in \(Report.decimal(seconds * 1000, places: 1)) ms"
        )
        return optimum.hits
    }

    /// Replays every configuration asked for through the real pipeline, one after another.
    private func runLive(_ trace: Trace, _ statistics: TraceStatistics) throws {
        var configurations = try clients(statistics)
        if configurations.isEmpty {
            for capacitySpec in try capacities() {
                let capacity = capacitySpec.resolved(for: statistics, mode: sizeMode)
                guard capacity > 0 else { throw CLIError("--capacity \(capacitySpec) is 0 bytes for this trace") }
                for kind in try policies() {
                    let tier = TierConfiguration(
                        policy: kind, capacity: capacity, ttl: try ttlMilliseconds(), ttlMode: ttlMode,
                        trimRatio: trimRatio)
                    configurations.append(
                        ClientConfiguration(
                            name: kind.rawValue, memory: self.tier == .memory ? tier : nil,
                            disk: self.tier == .disk ? tier : nil, sizeMode: sizeMode, network: network))
                }
            }
        }
        if live.store != nil, configurations.count > 1 {
            throw CLIError("--store keeps one run's disk tier; this asks for \(configurations.count) runs")
        }
        if live.record != nil, configurations.count > 1 {
            throw CLIError("--record records one run; this asks for \(configurations.count) runs")
        }
        var options = try live.options()
        if let folder = live.record {
            do {
                options.recorder = try TraceRecorder(directory: URL(fileURLWithPath: folder))
            } catch {
                throw CLIError("\(error)")
            }
        }
        options.progress = { finished, total in
            if finished % 10_000 == 0 { Output.status("  \(finished) of \(total) requests") }
        }
        var results: [RunResult] = []
        var notWhole = 0
        for client in configurations {
            Output.status("\(client.name): live replay of \(trace.count) requests…")
            let measured = try waitFor { [options] in try await LiveReplay.run(trace, client: client, options: options)
            }
            let simulated = Replay.simulate(trace, client: client, outcomes: true)
            let agreeing = zip(measured.run.outcomes, simulated.outcomes).count { $0 == $1 }
            Output.status(
                "\(client.name): \(Report.grouped(trace.count)) requests in \(Report.decimal(measured.seconds, places: 2)) s (\(Report.grouped(Int(measured.requestsPerSecond))) requests/s); outcome equal to the simulator's for \(Report.grouped(agreeing)) of \(Report.grouped(trace.count)); downloaded \(Report.grouped(measured.run.bytesDownloaded)) bytes, the server sent \(Report.grouped(measured.serverBytes))"
            )
            if !measured.faultsInjected.isEmpty {
                let kinds = measured.faultsInjected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
                Output.status(
                    "  the server injected \(measured.faultsInjected.values.reduce(0, +)) faults: \(kinds.joined(separator: ", "))"
                )
            }
            if measured.failures > 0 {
                Output.status("  \(measured.failures) requests failed; first: \(measured.firstErrors.first ?? "")")
            }
            notWhole += measured.notWhole
            results.append(measured.run)
        }
        if let recorder = options.recorder {
            let summary = try waitFor { try await recorder.close() }
            Output.status(
                "recorded \(summary.records) lookups and events in \(summary.parts.count) part\(summary.parts.count == 1 ? "" : "s") in \(recorder.directory.path)"
            )
        }
        try emit(results)
        if notWhole > 0 {
            throw CLIError("\(notWhole) answers were not whole images: the pipeline served a partial or corrupt image")
        }
    }

    /// Writes the results as the table or CSV asked for, to stdout or --out.
    private func emit(_ results: [RunResult]) throws {
        let text = format == .csv ? Report.csv(results) : Report.table(results)
        try Output.result(text, to: out)
        if let out { Output.status("wrote \(out)") }
    }

    /// The two-tier clients asked for: presets, or one custom pair of tiers.
    func clients(_ statistics: TraceStatistics) throws -> [ClientConfiguration] {
        var configurations: [ClientConfiguration] = []
        if let client {
            let ram = try size(deviceMemory, option: "--device-memory", statistics)
            let names =
                client == "all" ? ClientPreset.allCases.map(\.rawValue) : client.split(separator: ",").map(String.init)
            for name in names {
                guard let preset = ClientPreset(rawValue: name.trimmingCharacters()) else {
                    throw ValidationError(
                        "unknown client '\(name)'; choose from \(ClientPreset.allCases.map(\.rawValue).joined(separator: ", ")), or all"
                    )
                }
                var configuration = preset.configuration(ram: ram, network: network)
                configuration.sizeMode = sizeMode
                configurations.append(configuration)
            }
        }
        if memoryPolicy != nil || diskPolicy != nil || memoryCapacity != nil || diskCapacity != nil {
            func tier(_ policy: PolicyKind?, _ capacity: String?, _ name: String) throws -> TierConfiguration? {
                guard policy != nil || capacity != nil else { return nil }
                guard let capacity else { throw ValidationError("--\(name)-policy needs --\(name)-capacity") }
                return TierConfiguration(
                    policy: policy ?? .lru, capacity: try size(capacity, option: "--\(name)-capacity", statistics),
                    ttl: try ttlMilliseconds(), ttlMode: ttlMode, trimRatio: trimRatio)
            }
            let memory = try tier(memoryPolicy, memoryCapacity, "memory")
            let disk = try tier(diskPolicy, diskCapacity, "disk")
            let name = [memory.map { "memory:\($0.policy.rawValue)" }, disk.map { "disk:\($0.policy.rawValue)" }]
                .compactMap { $0 }.joined(separator: "+")
            configurations.append(
                ClientConfiguration(name: name, memory: memory, disk: disk, sizeMode: sizeMode, network: network))
        }
        return configurations
    }

    private func size(_ text: String, option: String, _ statistics: TraceStatistics) throws -> Int {
        do {
            let amount = try CapacitySpec(parsing: text).resolved(for: statistics, mode: sizeMode)
            guard amount > 0 else { throw ValidationError("\(option) \(text) is 0 for this trace") }
            return amount
        } catch let error as QuantityError {
            throw ValidationError("\(option): \(error)")
        }
    }

    func policies() throws -> [PolicyKind] {
        // A live replay runs a real client, which cannot run a policy that needs the future.
        try ListOptions.policies(policy, onlineOnly: mode == .live)
    }

    func capacities() throws -> [CapacitySpec] {
        try ListOptions.capacities(capacity ?? (trace == nil ? "512KiB" : "10%"))
    }

    func ttlMilliseconds() throws -> Int64? {
        guard let ttl else { return nil }
        do { return try Quantity.milliseconds(parsing: ttl) } catch { throw ValidationError("--ttl: \(error)") }
    }
}

enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table
    case csv
}

extension PolicyKind: ExpressibleByArgument {}
extension SizeMode: ExpressibleByArgument {}
extension TTLMode: ExpressibleByArgument {}
extension NetworkProfile: ExpressibleByArgument {}
extension TierKind: ExpressibleByArgument {}
extension TraceFormat: ExpressibleByArgument {}

extension StringProtocol {
    func padding(_ width: Int) -> String {
        count >= width ? String(self) : String(self) + String(repeating: " ", count: width - count)
    }

    func trimmingCharacters() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
