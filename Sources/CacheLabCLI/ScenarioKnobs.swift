import ArgumentParser
import CacheLab

/// How a generated trace is adjusted: a scroll scenario's people, list and device, or a Zipf
/// trace's shape. `trace generate` shows them; the commands that replay a scenario take them too,
/// shown by --help-hidden.
struct ScenarioKnobs: ParsableArguments {
    @Option(help: "Days the people use the app (scenario's default otherwise).")
    var days: Int?

    @Option(help: "Recipes in the list on day 0.")
    var recipes: Int?

    @Option(help: "People; more than one interleaves their requests as a shared cache sees them (no app events).")
    var users: Int?

    @Option(
        help: ArgumentHelp(
            "Everyone is this persona: \(Persona.all.map(\.name).joined(separator: ", ")).", valueName: "name"))
    var persona: String?

    @Option(help: ArgumentHelp("Device preset: \(Device.all.map(\.name).joined(separator: ", ")).", valueName: "name"))
    var device: String?

    @Option(help: ArgumentHelp("Row height in points.", valueName: "points"))
    var rowHeight: Double?

    @Option(help: ArgumentHelp("Viewport height in points.", valueName: "points"))
    var viewportHeight: Double?

    @Option(help: "Rows beyond each edge of the viewport whose photos are requested early.")
    var prefetchRows: Int?

    @Option(
        help: ArgumentHelp(
            "How the list asks for photos: lazy-stack (once per appearance, the default), prefetching (a prefetcher's request, then the cell's when the row shows: on a fast fling, delayed hits) or web-page (<img loading=\"lazy\"> rows, as cachelab serve's page: once per page load).",
            valueName: "kind"))
    var list: String?

    @Option(
        help: ArgumentHelp(
            "Instead of the personas' sessions, one person performs this gesture script (load, read, fling, wait, top, open, reload; as scripts/browser-trace performs it in Chromium).",
            valueName: "file"))
    var gestures: String?

    @Option(help: "New recipes added at the top per week, on average.")
    var newRecipesPerWeek: Double?

    @Option(help: "Recipes whose photos move to new URLs per week, on average.")
    var photoChangesPerWeek: Double?

    @Option(help: "Memory warnings per hour of use, for every persona (default: each persona's, 1).")
    var memoryWarningsPerHour: Double?

    @Option(
        help: "Interruptions per hour of use (background for a pause, then foreground), for every persona (default 4)."
    )
    var interruptionsPerHour: Double?

    @Option(
        help: ArgumentHelp(
            "The share of gestures that open an item first seen in an earlier session, for every persona (the feed readers': 0.05).",
            valueName: "share"))
    var revisitShare: Double?

    @Option(help: "zipf: number of requests.")
    var requests = 1_000_000

    @Option(help: "zipf: number of distinct objects.")
    var objects = 100_000

    @Option(help: "zipf: skew (0 = uniform; 0.6 to 1.2 is typical of web objects).")
    var alpha = 0.9

    @Option(
        help: ArgumentHelp(
            "zipf: object sizes, log-uniform between two sizes (1KB-100KB), or 'images' (7 in 8 of 6-16 KB, 1 in 8 of 50-160 KB).",
            valueName: "min-max|images"))
    var sizes = "1000-100000"

    func validate() throws {
        guard requests > 0, objects > 0 else { throw ValidationError("--requests and --objects must be positive") }
        guard alpha >= 0, alpha.isFinite else { throw ValidationError("--alpha must be a number ≥ 0") }
        _ = try sizeDistribution()
    }

    /// `--sizes` as a distribution.
    func sizeDistribution() throws -> SizeDistribution {
        if sizes == "images" { return .images }
        let parts = sizes.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2,
            case .absolute(let low)? = try? CapacitySpec(parsing: String(parts[0])),
            case .absolute(let high)? = try? CapacitySpec(parsing: String(parts[1])), low >= 1, low <= high
        else {
            throw ValidationError("--sizes takes two sizes, smallest first (1KB-100KB), or images")
        }
        return .logUniform(min: low, max: high)
    }

    /// The scroll scenario `scenario` at `seed`, adjusted, or nil for zipf.
    func scrollScenario(_ scenario: String, seed: UInt64) throws -> ScrollScenario? {
        if scenario == "zipf" { return nil }
        guard var chosen = ScrollScenario.named(scenario, seed: seed) else {
            throw ValidationError(
                "unknown scenario '\(scenario)'; choose from \(ScrollScenario.presets.map(\.name).joined(separator: ", ")), or zipf"
            )
        }
        if let days { chosen.days = try positive(days, "--days") }
        if let recipes { chosen.recipes = try positive(recipes, "--recipes") }
        if let users { chosen.users = try positive(users, "--users") }
        if let persona {
            guard let found = Persona.all.first(where: { $0.name == persona }) else {
                throw ValidationError(
                    "unknown persona '\(persona)'; choose from \(Persona.all.map(\.name).joined(separator: ", "))")
            }
            chosen.people = [ScrollScenario.Share(found)]
        }
        if let device {
            guard let found = Device.named(device) else {
                throw ValidationError(
                    "unknown device '\(device)'; choose from \(Device.all.map(\.name).joined(separator: ", "))")
            }
            chosen.device = found
        }
        if let rowHeight { chosen.device.rowHeight = Double(try positive(Int(rowHeight.rounded()), "--row-height")) }
        if let viewportHeight {
            chosen.device.viewportHeight = Double(try positive(Int(viewportHeight.rounded()), "--viewport-height"))
        }
        if let prefetchRows {
            guard prefetchRows >= 0 else { throw ValidationError("--prefetch-rows must be 0 or more") }
            chosen.device.prefetchRows = prefetchRows
            chosen.device.prefetchPoints = nil
        }
        if let list {
            guard let kind = ListKind(rawValue: list) else {
                throw ValidationError(
                    "unknown list '\(list)'; choose from \(ListKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            chosen.list = kind
        }
        if let newRecipesPerWeek { chosen.newRecipesPerWeek = try rate(newRecipesPerWeek, "--new-recipes-per-week") }
        if let photoChangesPerWeek {
            chosen.photoChangesPerWeek = try rate(photoChangesPerWeek, "--photo-changes-per-week")
        }
        if let memoryWarningsPerHour {
            let rate = try rate(memoryWarningsPerHour, "--memory-warnings-per-hour")
            for index in chosen.people.indices { chosen.people[index].persona.memoryWarningsPerHour = rate }
        }
        if let revisitShare {
            guard revisitShare >= 0, revisitShare < 1 else {
                throw ValidationError("--revisit-share is a share in [0, 1), e.g. 0.05")
            }
            for index in chosen.people.indices {
                var mix = chosen.people[index].persona.mix
                mix.revisit = 0
                let others = mix.read + mix.fling + mix.bounce + mix.jumpToTop + mix.search + mix.open
                mix.revisit = others * revisitShare / (1 - revisitShare)
                chosen.people[index].persona.mix = mix
            }
        }
        if let interruptionsPerHour {
            let rate = try rate(interruptionsPerHour, "--interruptions-per-hour")
            for index in chosen.people.indices { chosen.people[index].persona.interruptionsPerHour = rate }
        }
        return chosen
    }

    /// The generated trace: a Zipf trace streams; a scroll scenario is made in memory.
    func makeSource(_ scenario: String, seed: UInt64) throws -> TraceSource {
        guard let chosen = try scrollScenario(scenario, seed: seed) else {
            if gestures != nil { throw CLIError("--gestures scripts a scroll scenario's list, not a zipf trace") }
            return TraceSource(
                .zipf(
                    ZipfParameters(
                        requests: requests, objects: objects, alpha: alpha, seed: seed, sizes: try sizeDistribution())))
        }
        guard let gestures else { return TraceSource(chosen.makeTrace()) }
        let text: String
        do {
            text = try String(contentsOfFile: gestures, encoding: .utf8)
        } catch {
            throw CLIError("cannot read the gesture script \(gestures): \(error.localizedDescription)")
        }
        do {
            return TraceSource(chosen.makeTrace(performing: try GestureScript(parsing: text, file: gestures)))
        } catch {
            throw CLIError("\(error)")
        }
    }

    private func positive(_ value: Int, _ option: String) throws -> Int {
        guard value > 0 else { throw ValidationError("\(option) must be positive") }
        return value
    }

    private func rate(_ value: Double, _ option: String) throws -> Double {
        guard value >= 0, value.isFinite else { throw ValidationError("\(option) must be a number ≥ 0") }
        return value
    }
}
