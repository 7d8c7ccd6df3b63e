import CacheEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The capacities a sweep asks for on each trace, before any trace is read: a list
/// (`--capacity 1%,5%,20MB`) or a range (`--from`, `--to`, `--points`, log-spaced or linear).
///
/// Each capacity is resolved on its own (`resolve(_:for:mode:)`), so that a sweep's cells can be
/// named, and split between machines, before a trace's working set is known; two capacities that
/// resolve to the same amount on a small trace are folded into one when the results are read
/// (`SweepManifest.runs`).
public enum CapacityList: Sendable, Equatable {
    case list([CapacitySpec])
    /// `points` capacities from `from` to `to`, both included, evenly spaced on the scale asked
    /// for. `startsAtOne`: the range's start was not given, so a default share that rounds to
    /// nothing on a small trace starts the range at 1 instead of failing.
    case range(from: CapacitySpec, to: CapacitySpec, points: Int, spacing: Spacing, startsAtOne: Bool)

    public enum Spacing: String, Sendable, CaseIterable {
        case log
        case linear
    }

    /// How many capacities, on any trace.
    public var count: Int {
        switch self {
        case .list(let specs): specs.count
        case .range(_, _, let points, _, _): points
        }
    }

    /// Whether resolving needs the trace's working set (a share anywhere).
    public var needsStatistics: Bool {
        func share(_ spec: CapacitySpec) -> Bool {
            if case .percentOfWorkingSet = spec { true } else { false }
        }
        switch self {
        case .list(let specs): return specs.contains(where: share)
        case .range(let from, let to, _, _, _): return share(from) || share(to)
        }
    }

    /// Capacity `index` as asked, for a cell's name: `1048576`, `5.0%`, or its place in a range.
    public func key(_ index: Int) -> String {
        switch self {
        case .list(let specs):
            return specs[index].description
        case .range(let from, let to, let points, let spacing, let startsAtOne):
            return "\(from)..\(to) \(spacing.rawValue) \(points)\(startsAtOne ? " from-1" : "") #\(index)"
        }
    }

    /// Capacity `index` on a trace with `statistics` (nil when no capacity is a share).
    public func resolve(
        _ index: Int, for statistics: TraceStatistics?, mode: SizeMode
    ) throws(CapacityListError) -> Int {
        let statistics =
            statistics
            ?? TraceStatistics(requests: 0, uniqueObjects: 0, workingSetBytes: 0, bytesRequested: 0, events: 0)
        switch self {
        case .list(let specs):
            let amount = specs[index].resolved(for: statistics, mode: mode)
            guard amount >= 1 else {
                throw .zero(
                    option: "--capacity", spec: specs[index], workingSet: statistics.workingSet(in: mode), mode: mode)
            }
            return amount
        case .range(let from, let to, let points, let spacing, let startsAtOne):
            var low = from.resolved(for: statistics, mode: mode)
            if startsAtOne { low = max(low, 1) }
            let high = to.resolved(for: statistics, mode: mode)
            guard low >= 1 else {
                throw .zero(option: "--from", spec: from, workingSet: statistics.workingSet(in: mode), mode: mode)
            }
            guard high >= low else { throw .reversed(from: low, to: high) }
            return Self.point(index, from: low, to: high, points: points, spacing: spacing)
        }
    }

    /// Every capacity on a trace, ascending and distinct.
    public func resolved(for statistics: TraceStatistics?, mode: SizeMode) throws(CapacityListError) -> [Int] {
        var amounts = Set<Int>()
        for index in 0..<count { amounts.insert(try resolve(index, for: statistics, mode: mode)) }
        return amounts.sorted()
    }

    /// Point `index` of `points` from `low` to `high`, rounded to the nearest; every point is
    /// `low` when the range is a single capacity.
    static func point(_ index: Int, from low: Int, to high: Int, points: Int, spacing: Spacing) -> Int {
        guard points > 1, high > low else { return low }
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

/// Why a capacity cannot be resolved on a trace.
public enum CapacityListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A share of the working set rounds to nothing on this trace.
    case zero(option: String, spec: CapacitySpec, workingSet: Int, mode: SizeMode)
    /// The range ends below where it starts.
    case reversed(from: Int, to: Int)

    public var description: String {
        switch self {
        case .zero(let option, let spec, let workingSet, let mode):
            let unit = mode == .unit ? "objects" : "bytes"
            return
                "\(option) \(spec) is 0 \(unit) on this trace (working set \(workingSet) \(unit)); give a larger share or a size"
        case .reversed(let from, let to):
            return "--to (\(to)) must not be smaller than --from (\(from))"
        }
    }
}
