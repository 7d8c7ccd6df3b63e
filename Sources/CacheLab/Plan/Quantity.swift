/// Parsing of human quantities: sizes and durations.
public enum Quantity {
    static let byteUnits: [(String, Double)] = [
        ("kib", 1024), ("mib", 1024 * 1024), ("gib", 1024 * 1024 * 1024), ("tib", 1024 * 1024 * 1024 * 1024),
        ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("tb", 1e12),
        ("k", 1e3), ("m", 1e6), ("g", 1e9), ("t", 1e12), ("b", 1),
    ]
    static let durationUnits: [(String, Double)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("min", 60_000), ("h", 3_600_000), ("d", 86_400_000),
        ("w", 604_800_000),
    ]

    /// Parses a duration into milliseconds: `300s`, `5m`, `1.5h`, `7d`, `250ms`; a bare number is seconds.
    public static func milliseconds(parsing text: String) throws(QuantityError) -> Int64 {
        let trimmed = text.trimmingWhitespace()
        let expected = "a duration like 300s, 5m, 12h or 7d"
        let value: Int
        if Double(trimmed) != nil {
            value = try parse(
                trimmed + "s", original: text, units: durationUnits, expected: expected, wholeUnit: "milliseconds")
        } else {
            value = try parse(
                trimmed, original: text, units: durationUnits, expected: expected, wholeUnit: "milliseconds")
        }
        guard value > 0 else { throw QuantityError(text: text, expected: expected + " (longer than 0)") }
        return Int64(value)
    }

    /// A duration in the largest unit that divides it: 3_600_000 → "1h", 90_000 → "90s",
    /// 250 → "250ms" (what `milliseconds(parsing:)` reads back).
    public static func durationLabel(milliseconds: Int64) -> String {
        for (unit, factor) in [("w", 604_800_000), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1_000)]
        where milliseconds >= factor && milliseconds % Int64(factor) == 0 {
            return "\(milliseconds / Int64(factor))\(unit)"
        }
        return "\(milliseconds)ms"
    }

    /// `text` in the units' base (bytes, milliseconds): a negative amount, or one that is not a
    /// whole number of `wholeUnit` (1.5 bytes), is refused rather than rounded.
    static func parse(
        _ text: String, original: String, units: [(String, Double)], expected: String, wholeUnit: String
    ) throws(QuantityError) -> Int {
        let lowered = text.lowercased()
        var number = Substring(lowered)
        var multiplier = 1.0
        // Longest suffix first: "ms" before "s", "kib" before "b".
        for (suffix, factor) in units.sorted(by: { $0.0.count > $1.0.count }) where lowered.hasSuffix(suffix) {
            number = lowered.dropLast(suffix.count)
            multiplier = factor
            break
        }
        guard let amount = Double(number.trimmingWhitespace()), amount.isFinite else {
            throw QuantityError(text: original, expected: expected)
        }
        guard amount >= 0 else { throw QuantityError(text: original, expected: expected + " (it is negative)") }
        let exact = amount * multiplier
        let value = exact.rounded()
        guard value < 9.2e18 else { throw QuantityError(text: original, expected: expected + " (too large)") }
        // 0.1MB is 100,000 bytes to within the Double's rounding; 1.5 bytes is no size.
        guard abs(exact - value) <= 1e-9 * max(1, exact) else {
            throw QuantityError(text: original, expected: "a whole number of \(wholeUnit)")
        }
        return Int(value)
    }
}
