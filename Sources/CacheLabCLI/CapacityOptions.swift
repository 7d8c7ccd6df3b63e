import ArgumentParser
import CacheLab

/// The capacities a sweep runs at: a list (`--capacity 1%,5%,20MB`) or a range (`--from`, `--to`,
/// `--points`, log-spaced unless `--spacing linear`). Shared by `run`, `mrc` and `compare`.
struct CapacityOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Capacities, comma-separated: bytes (4096), units (20MB, 512KiB), objects in unit mode, or shares of the working set (10%). Default: run 512KiB on a generated scenario and 10% of a --trace's working set; mrc and compare a range.",
            valueName: "size[,size...]"))
    var capacity: String?

    @Option(help: ArgumentHelp("Smallest capacity of the range (default 1%).", valueName: "size"))
    var from: String?

    @Option(help: ArgumentHelp("Largest capacity of the range (default 100%).", valueName: "size"))
    var to: String?

    @Option(
        help: ArgumentHelp(
            "Capacities in the range, both ends included (run: 10, mrc: 20, compare: 12).", valueName: "n"))
    var points: Int?

    @Option(help: "Space the range's capacities evenly on a log or a linear scale.")
    var spacing: CapacityList.Spacing = .log

    func validate() throws {
        if capacity != nil, from != nil || to != nil || points != nil {
            throw ValidationError("give either --capacity or a range (--from/--to/--points), not both")
        }
        if let capacity { _ = try ListOptions.capacities(capacity) }
        if let from { _ = try ListOptions.capacity(from, option: "--from") }
        if let to { _ = try ListOptions.capacity(to, option: "--to") }
        if let points, points < 1 { throw ValidationError("--points must be at least 1") }
    }

    /// Whether a range (`--from`, `--to`, `--points`) was asked for.
    var isRange: Bool { from != nil || to != nil || points != nil }

    /// The capacities asked for: the list given, else a range (of `defaultPoints` points unless
    /// `--points` says otherwise; from 1 % to 100 % of the working set unless `--from`/`--to`
    /// say otherwise), or `defaultList` when given and no range was asked for.
    func list(defaultPoints: Int, defaultList: String? = nil) throws -> CapacityList {
        if let capacity { return .list(try ListOptions.capacities(capacity)) }
        if let defaultList, !isRange { return .list(try ListOptions.capacities(defaultList)) }
        return .range(
            from: try ListOptions.capacity(from ?? "1%", option: "--from"),
            to: try ListOptions.capacity(to ?? "100%", option: "--to"), points: points ?? defaultPoints,
            spacing: spacing, startsAtOne: from == nil)
    }
}

extension CapacityList.Spacing: ExpressibleByArgument {}
