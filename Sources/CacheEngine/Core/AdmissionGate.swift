#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An admission filter at work in one cache (`AdmissionFilter` says which): what it remembers
/// and the random stream it draws from, shared with the cache's policy (`LehmerRandom`).
///
/// - Complexity: O(1) expected per request (AdaptSize adds its re-tuning every interval).
@usableFromInline package final class AdmissionGate {
    @usableFromInline package let filter: AdmissionFilter
    @usableFromInline package let random: LehmerRandom
    /// `bloom`: every key refused once (as a set: slots are unused).
    @exclusivity(unchecked) @usableFromInline package var seen: SlotIndex<UInt64>
    @usableFromInline package let adaptSize: AdaptSizeModel?
    /// Whether the filter counts every request, hits included (AdaptSize).
    @usableFromInline package let observes: Bool

    @inlinable package init(_ filter: AdmissionFilter, random: LehmerRandom) {
        self.filter = filter
        self.random = random
        seen = SlotIndex(minimumCapacity: filter == .bloom ? 1024 : 1)
        if case .adaptSize(let interval) = filter {
            adaptSize = AdaptSizeModel(interval: interval)
        } else {
            adaptSize = nil
        }
        observes = adaptSize != nil
    }

    /// A request for `key` costing `cost` (a hit, or a miss before `admits`), in a cache of
    /// `capacity`.
    @inline(__always)
    @inlinable package func observe(_ key: UInt64, cost: Int, capacity: Int) {
        adaptSize?.observe(key, size: cost, capacity: capacity)
    }

    /// Whether a missed `key` costing `cost` may be stored (asked once per miss).
    @inline(__always)
    @inlinable package func admits(_ key: UInt64, cost: Int) -> Bool {
        switch filter {
        case .bloom:
            guard !seen.contains(key) else { return true }
            seen.insert(key, slot: 0)
            return false
        case .size(let below):
            return cost < below
        case .probability(let probability):
            return Int32(truncatingIfNeeded: random.next() % 10_000_000) < Int32(probability * 1e7)
        case .sizeProbability(let exponent):
            let chance = exp(-exponent * Double(cost))
            return Double(random.next() % 10_000_000) / 1e7 < chance
        case .adaptSize:
            return adaptSize!.admits(size: cost, random: random)
        }
    }
}
