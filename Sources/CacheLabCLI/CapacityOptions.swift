import ArgumentParser
import CacheEngine
import CacheLab

/// The capacities a sweep runs at: a list (`--capacity 1%,5%,20MB`) or a range (`--from`, `--to`,
/// `--points`, log-spaced unless `--spacing linear`). Shared by `run`, `mrc` and `compare`.
struct CapacityOptions: ParsableArguments {
    // Each value is read unconditionally, so that `--capacity -5` gets its real reason rather
    // than ArgumentParser's "Missing value" (it takes -5 for an option).
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Capacities, comma-separated: 4096, 20MB, 512KiB, or 10% of the working set (default: run 512KiB on a scenario, 10% of a --trace's; mrc and compare a range). A share reads a trace file twice.",
            valueName: "size[,size...]"))
    var capacity: String?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Smallest capacity of the range (default 1%).", valueName: "size"))
    var from: String?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Largest capacity of the range (default 100%).", valueName: "size"))
    var to: String?

    @Option(
        parsing: .unconditional,
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
        let low = try from.map { try ListOptions.capacity($0, option: "--from") }
        let high = try to.map { try ListOptions.capacity($0, option: "--to") }
        // Two shares, or two amounts, are ordered here, in the user's units; a share against an
        // amount needs the trace's working set.
        if let low, let high, Self.isBelow(high, low) {
            throw ValidationError("--to \(to ?? "") is smaller than --from \(from ?? "")")
        }
        if let points, points < 1 { throw ValidationError("--points must be at least 1") }
    }

    /// Whether `a` is below `b` in the same units (two amounts, or two shares).
    private static func isBelow(_ a: CapacitySpec, _ b: CapacitySpec) -> Bool {
        switch (a, b) {
        case (.absolute(let x), .absolute(let y)): x < y
        case (.percentOfWorkingSet(let x), .percentOfWorkingSet(let y)): x < y
        default: false
        }
    }

    /// A note for each capacity written as a bare number below 1,000 when capacities count bytes:
    /// `--capacity 20` runs at 20 bytes, smaller than any image, when 20 MB or 20 objects was meant.
    func notes(sizeMode: SizeMode) -> [String] {
        guard sizeMode == .bytes else { return [] }
        return [("--capacity", capacity), ("--from", from), ("--to", to)].flatMap { option, text in
            ListOptions.bareBytesNotes(text, option: option, objects: "--size-mode unit")
        }
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
