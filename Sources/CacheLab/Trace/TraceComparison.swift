/// Two traces of the same list compared by what they asked for and in what order: a browser's
/// recording against the list model's trace of the same gestures (`cachelab trace diff`).
///
/// Keys are compared by name (`Trace.keyNames`) when both traces have names, else by value. Each
/// key's place is the position of its first request; the order agreement is Spearman's rank
/// correlation of those places over the keys both traces asked for.
public struct TraceComparison: Sendable, Equatable {
    public var requests: (first: Int, second: Int)
    /// Distinct keys of each.
    public var keys: (first: Int, second: Int)
    /// Keys both asked for.
    public var common: Int
    /// Keys only one asked for, in the order it first asked (names, or values as text).
    public var onlyFirst: [String]
    public var onlySecond: [String]
    /// Spearman's ρ of the common keys' first-request ranks: 1 when they come in the same order.
    public var rankCorrelation: Double
    /// The mean distance, in ranks among the common keys, between a key's place in each.
    public var meanRankShift: Double

    public static func == (lhs: TraceComparison, rhs: TraceComparison) -> Bool {
        lhs.requests == rhs.requests && lhs.keys == rhs.keys && lhs.common == rhs.common
            && lhs.onlyFirst == rhs.onlyFirst && lhs.onlySecond == rhs.onlySecond
            && lhs.rankCorrelation == rhs.rankCorrelation && lhs.meanRankShift == rhs.meanRankShift
    }

    /// Keys both asked for as a share of the keys either asked for (Jaccard index).
    public var setAgreement: Double {
        let union = common + onlyFirst.count + onlySecond.count
        return union == 0 ? 1 : Double(common) / Double(union)
    }

    public init(_ first: Trace, _ second: Trace) {
        let byName = first.keyNames != nil && second.keyNames != nil
        func firstRequests(_ trace: Trace) -> [String] {
            var seen: Set<String> = []
            var order: [String] = []
            for key in trace.keys {
                let name = byName ? trace.keyNames![Int(key)] : String(key)
                if seen.insert(name).inserted { order.append(name) }
            }
            return order
        }
        let orderFirst = firstRequests(first)
        let orderSecond = firstRequests(second)
        requests = (first.count, second.count)
        keys = (orderFirst.count, orderSecond.count)
        let setFirst = Set(orderFirst)
        let setSecond = Set(orderSecond)
        onlyFirst = orderFirst.filter { !setSecond.contains($0) }
        onlySecond = orderSecond.filter { !setFirst.contains($0) }
        let commonFirst = orderFirst.filter(setSecond.contains)
        let commonSecond = orderSecond.filter(setFirst.contains)
        common = commonFirst.count
        var rankInSecond: [String: Int] = [:]
        for (rank, name) in commonSecond.enumerated() { rankInSecond[name] = rank }
        let n = Double(common)
        var squares = 0.0
        var shifts = 0.0
        for (rank, name) in commonFirst.enumerated() {
            let shift = Double(rank - rankInSecond[name]!)
            squares += shift * shift
            shifts += abs(shift)
        }
        rankCorrelation = common < 2 ? 1 : 1 - 6 * squares / (n * (n * n - 1))
        meanRankShift = common == 0 ? 0 : shifts / n
    }
}
