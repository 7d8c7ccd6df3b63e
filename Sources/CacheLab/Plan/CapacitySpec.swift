import CacheEngine

/// A capacity as a user writes it: an absolute amount, or a share of the trace's working set.
public enum CapacitySpec: Sendable, Equatable, CustomStringConvertible {
    /// Bytes in bytes mode, objects in unit mode.
    case absolute(Int)
    /// A percentage of the working set, resolved per trace (floor, as libCacheSim's scripts do).
    case percentOfWorkingSet(Double)

    /// Parses `20MB` (10^6), `512KiB` (2^10), `1.5GB`, `4096`, `10%`, `12k` (objects).
    /// Decimal suffixes K/KB, M/MB, G/GB, T/TB; binary KiB, MiB, GiB, TiB; case-insensitive.
    public init(parsing text: String) throws(QuantityError) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasSuffix("%") {
            guard let percent = Double(trimmed.dropLast()), percent > 0, percent <= 100 else {
                throw QuantityError(text: text, expected: "a percentage in (0, 100], like 10%")
            }
            self = .percentOfWorkingSet(percent)
            return
        }
        self = .absolute(
            try Quantity.parse(
                trimmed, original: text, units: Quantity.byteUnits, expected: "a size like 20MB, 512KiB or 4096",
                wholeUnit: "bytes (or objects)"))
    }

    /// The capacity in the units of `mode` for a trace with these statistics.
    public func resolved(for statistics: TraceStatistics, mode: SizeMode) -> Int {
        switch self {
        case .absolute(let amount): amount
        case .percentOfWorkingSet(let percent):
            Int((Double(statistics.workingSet(in: mode)) * percent / 100).rounded(.down))
        }
    }

    public var description: String {
        switch self {
        case .absolute(let amount): String(amount)
        case .percentOfWorkingSet(let percent): "\(percent)%"
        }
    }
}
