import ArgumentParser
import CacheLab

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The capacities a sweep runs at: a list (`--capacity 1%,5%,20MB`) or a range (`--from`, `--to`,
/// `--points`, log-spaced unless `--spacing linear`). Shared by `run`, `mrc` and `compare`.
struct CapacityOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Capacities, comma-separated: bytes (4096), units (20MB, 512KiB), objects in unit mode, or shares of the working set (10%).",
            valueName: "size[,size...]"))
    var capacity: String?

    @Option(help: ArgumentHelp("Smallest capacity of the range (default 1%).", valueName: "size"))
    var from: String?

    @Option(help: ArgumentHelp("Largest capacity of the range (default 100%).", valueName: "size"))
    var to: String?

    @Option(help: ArgumentHelp("Capacities in the range, both ends included (mrc: 20, compare: 12).", valueName: "n"))
    var points: Int?

    @Option(help: "Space the range's capacities evenly on a log or a linear scale.")
    var spacing: Spacing = .log

    enum Spacing: String, CaseIterable, ExpressibleByArgument {
        case log
        case linear
    }

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

    /// The list asked for, or `text` when none was (a range is resolved by `resolved`).
    func specs(default text: String) throws -> [CapacitySpec] {
        try ListOptions.capacities(capacity ?? text)
    }

    /// Whether resolving the capacities needs the trace's working set (a pass over a file): a
    /// share in the list, or a range with an end given as a share (both ends default to one).
    /// With no list and no range, the command's default list decides.
    var needsStatistics: Bool {
        if isRange { return (from ?? "1%").contains("%") || (to ?? "100%").contains("%") }
        return capacity?.contains("%") ?? true
    }

    /// The capacities resolved for a trace whose statistics are known only when they are needed.
    func resolved(_ statistics: TraceStatistics?, sizeMode: SizeMode, defaultPoints: Int) throws -> [Int] {
        guard let statistics else {
            precondition(!needsStatistics, "capacities given as shares need the trace's statistics")
            return try resolved(
                TraceStatistics(requests: 0, uniqueObjects: 0, workingSetBytes: 0, bytesRequested: 0, events: 0),
                sizeMode: sizeMode, defaultPoints: defaultPoints)
        }
        return try resolved(statistics, sizeMode: sizeMode, defaultPoints: defaultPoints)
    }

    /// The capacities asked for, resolved for this trace, ascending and distinct; a range has
    /// `defaultPoints` points unless `--points` says otherwise.
    func resolved(_ statistics: TraceStatistics, sizeMode: SizeMode, defaultPoints: Int) throws -> [Int] {
        let specs: [CapacitySpec]
        if let capacity {
            specs = try ListOptions.capacities(capacity)
        } else {
            var low = try ListOptions.capacity(from ?? "1%", option: "--from").resolved(for: statistics, mode: sizeMode)
            // The default's 1 % rounds to nothing on a small trace in unit mode: start at 1.
            if from == nil { low = max(low, 1) }
            let high = try ListOptions.capacity(to ?? "100%", option: "--to").resolved(for: statistics, mode: sizeMode)
            guard low >= 1 else {
                throw ValidationError("--from \(from ?? "1%") is 0 for this trace; give a larger share or a size")
            }
            guard high >= low else { throw ValidationError("--to must not be smaller than --from") }
            specs = Self.range(from: low, to: high, points: points ?? defaultPoints, spacing: spacing).map {
                .absolute($0)
            }
        }
        var resolved: [Int] = []
        for spec in specs {
            let amount = spec.resolved(for: statistics, mode: sizeMode)
            guard amount >= 1 else {
                throw ValidationError("--capacity \(spec) is 0 for this trace; give a larger share or a size")
            }
            resolved.append(amount)
        }
        return Array(Set(resolved)).sorted()
    }

    /// `points` capacities from `low` to `high`, both included, evenly spaced on the scale asked
    /// for and rounded to the nearest (duplicates, on small ranges, are dropped by the caller).
    static func range(from low: Int, to high: Int, points: Int, spacing: Spacing) -> [Int] {
        guard points > 1, high > low else { return [low] }
        return (0..<points).map { index in
            if index == points - 1 { return high }
            let fraction = Double(index) / Double(points - 1)
            switch spacing {
            case .linear:
                return low + Int((Double(high - low) * fraction).rounded())
            case .log:
                return max(low, Int((Double(low) * pow(Double(high) / Double(low), fraction)).rounded()))
            }
        }
    }
}
