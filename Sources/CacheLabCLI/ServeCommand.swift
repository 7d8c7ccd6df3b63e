import ArgumentParser
import CacheEngine
import CacheLab
import FixtureServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a local imitation of the recipe API: lists, photos, shaping and injected faults.",
        discussion: """
            Prints the base URL (e.g. http://127.0.0.1:8080) on stdout once listening, then serves until \
            SIGINT or SIGTERM. Every random choice (jitter, faults) is drawn from --seed and the request's \
            number, so the same requests in the same order get the same answers.

            Routes (lists and photos carry ETag and Cache-Control; a matching
            If-None-Match gets 304):
              GET  /recipes.json               the list; photo URLs point here (paths
                                               like /photos/<folder>/small.jpg with
                                               --relative-photo-paths)
              GET  /recipes-malformed.json     the list, "name" gone from 3 recipes
              GET  /recipes-empty.json         {"recipes": []}
              GET  /photos/<folder>/small.jpg  a JPEG of one colour, 150x150 (700x700
              GET  /photos/<folder>/large.jpg  large) at the photo's byte size, the same
                                               for the same --seed
              GET  /                           the list as a web page: a row per recipe,
                                               its small photo as <img loading="lazy">
              GET  /recipes/<uuid>             a recipe's page with its large photo
              GET  /stats                      requests, bytes and faults (JSON)
              POST /stats/reset                zero the stats and the draws
            Anything else, path traversal included, is 404.

            Faults (--faults, applied to lists and photos):
            \(FaultKind.allCases.map { "  \($0.rawValue.padding(9))  \($0.summary)" }.joined(separator: "\n"))
            """
    )

    @Option(help: ArgumentHelp("Address to bind.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Port to bind; 0 picks a free one (read it from stdout).", valueName: "port"))
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "Serve this recipes.json (e.g. ../shared/fixtures/recipes.json) instead of a generated catalog.",
            valueName: "path"))
    var catalog: String?

    @Option(
        help: ArgumentHelp(
            "Serve the objects of this trace as photos (for `cachelab run --mode live --server URL` on the same trace).",
            valueName: "path"))
    var trace: String?

    @Option(help: ArgumentHelp("Recipes in the generated catalog.", valueName: "count"))
    var recipes = 63

    @Option(help: "Seed of the generated catalog, the photo bytes, jitter and faults.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Latency added to every list and photo response.", valueName: "ms"))
    var latency = 0

    @Option(help: ArgumentHelp("Up to this much more latency, drawn per request.", valueName: "ms"))
    var jitter = 0

    @Option(help: ArgumentHelp("Cap on photo body speed (no cap by default).", valueName: "bytes-per-s"))
    var bandwidth: Int?

    @Option(
        help: ArgumentHelp(
            "Chance per list or photo request of an injected fault, spread evenly over --faults.", valueName: "rate"))
    var faultRate = 0.0

    @Option(help: ArgumentHelp("Fault kinds, comma-separated, or 'all'.", valueName: "kind[,kind...]"))
    var faults = "all"

    @Option(help: ArgumentHelp("Cache-Control max-age of lists and photos.", valueName: "seconds"))
    var maxAge = 3_600

    @Flag(
        help: ArgumentHelp(
            "Give photo URLs in the lists as paths relative to the server (/photos/<folder>/small.jpg).",
            discussion: """
                Imitates an API that returns relative photo paths; clients resolve them against the \
                base URL they fetched the list from (RecipeClient's APIEnvironment does). Photos are \
                served at the same paths either way.
                """))
    var relativePhotoPaths = false

    @Option(
        help: ArgumentHelp(
            "The web page's rows are as tall as this device preset's: \(Device.all.map(\.name).joined(separator: ", ")).",
            valueName: "name"))
    var device = Device.phone.name

    @Option(
        help: ArgumentHelp(
            "Record every photo request, in arrival order, as a cachelab trace written here when the server stops.",
            discussion: """
                Times are milliseconds since the server started; keys are the photos' URLs on \
                https://recipes.example, as the scroll scenarios name them. Requests go to FILE.parts/ \
                as they arrive (the app recorder's crash-safe parts); on SIGINT or SIGTERM they are \
                merged into FILE, which appears whole, and the parts removed. After a kill, \
                `cachelab trace import FILE.parts --out FILE` recovers them.
                """,
            valueName: "file"))
    var record: String?

    func validate() throws {
        if trace != nil, catalog != nil { throw ValidationError("--trace and --catalog are alternatives: give one") }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535 (0 picks one)") }
        guard recipes > 0 else { throw ValidationError("--recipes must be at least 1, e.g. 63") }
        guard latency >= 0, jitter >= 0 else { throw ValidationError("--latency and --jitter are milliseconds ≥ 0") }
        if let bandwidth, bandwidth <= 0 {
            throw ValidationError("--bandwidth is bytes per second, e.g. 250000 for 2 Mbit/s")
        }
        guard (0...1).contains(faultRate) else { throw ValidationError("--fault-rate must be in 0...1, e.g. 0.1") }
        guard maxAge >= 0 else { throw ValidationError("--max-age is seconds ≥ 0") }
        _ = try faultKinds()
        guard Device.named(device) != nil else {
            throw ValidationError(
                "unknown device '\(device)'; choose from \(Device.all.map(\.name).joined(separator: ", "))")
        }
    }

    func faultKinds() throws -> [FaultKind] {
        try FaultKind.parseList(faults)
    }

    func makeConfiguration() throws -> FixtureConfiguration {
        var configuration = FixtureConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.catalog = catalog.map { .file(path: $0) } ?? .generated(recipes: recipes)
        configuration.seed = seed
        configuration.latency = .milliseconds(latency)
        configuration.jitter = .milliseconds(jitter)
        configuration.bandwidth = bandwidth
        configuration.faults = .spread(faultRate, over: try faultKinds())
        configuration.maxAge = maxAge
        configuration.relativePhotoPaths = relativePhotoPaths
        configuration.pageRowHeight = Int((Device.named(device) ?? .phone).rowHeight)
        return configuration
    }

    func run() async throws {
        // This process only serves: from here on the event loops run the tasks (no thread hops).
        _ = FixtureServer.runTasksOnEventLoops()
        let configuration = try makeConfiguration()
        let objects = try traceObjects()
        let recording = try record.map { try PhotoRecording(out: $0) }
        do {
            let server = try await FixtureServer.start(
                configuration: configuration, catalog: objects?.catalog, stopOnSignals: true,
                photoRequested: recording?.photoRequested)
            try Output.result(server.baseURL + "\n", to: nil)
            let what =
                objects.map { "the \($0.count) objects of \(trace ?? "")" }
                ?? "\(server.catalog.recipes.count) recipes"
            Output.status("serving \(what) at \(server.baseURL) (Ctrl-C to stop)")
            try await server.waitUntilStopped()
        } catch let error as FixtureServerError {
            throw CLIError("\(error)")
        } catch {
            throw CLIError("cannot serve on \(host):\(port): \(error)")
        }
        if let recording { try await recording.finish() }
    }

    // The photos of --trace, if given.
    private func traceObjects() throws -> TraceObjects? {
        guard let trace else { return nil }
        do {
            return try TraceObjects(trace: TraceReader.read(path: trace))
        } catch {
            throw CLIError("\(error)")
        }
    }
}
