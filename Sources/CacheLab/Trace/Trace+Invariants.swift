extension Trace {
    /// What is wrong with this trace's storage, as sentences; empty when every invariant holds:
    /// the columns have one entry per request, every size is 1 to `largestSize`, the events are
    /// sorted by position within `0...count` (only `favourite`, `unfavourite` and the prefetcher's events name a key, and a `prefetch` names its request's), and
    /// `keyNames`, when present, names every key. Readers and generators must hand out traces
    /// for which this is empty; their tests check it.
    public func checkInvariants() -> [String] {
        var problems: [String] = []
        if times.count != count || sizes.count != count {
            problems.append("\(times.count) times and \(sizes.count) sizes for \(count) keys")
        }
        if let pixelSizes, pixelSizes.count != count {
            problems.append("\(pixelSizes.count) pixel sizes for \(count) requests")
        }
        if let index = sizes.firstIndex(where: { !(1...Self.largestSize).contains($0) }) {
            problems.append("request \(index + 1) has size \(sizes[index])")
        }
        if let index = events.indices.dropFirst().first(where: { events[$0].position < events[$0 - 1].position }) {
            problems.append("event \(index + 1) comes before the event ahead of it")
        }
        if let event = events.first(where: { !(0...count).contains($0.position) }) {
            problems.append("an event at position \(event.position) of \(count)")
        }
        if let event = events.first(where: { ($0.key != nil) != $0.kind.takesKey }) {
            problems.append("a \(event.kind.rawValue) event \(event.key == nil ? "without" : "with") a key")
        }
        if let event = events.first(where: {
            $0.kind == .prefetch && ($0.position == count || keys[$0.position] != $0.key)
        }) {
            problems.append("a prefetch event at position \(event.position) names another key than its request")
        }
        if let keyNames, let key = keys.first(where: { $0 >= UInt64(keyNames.count) }) {
            problems.append("key \(key) has no name (\(keyNames.count) names)")
        }
        return problems
    }
}
