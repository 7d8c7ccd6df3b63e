import CacheEngine
import CacheLab
import ClientModel

/// The `ImageCaching` rules as checks any conformer can be put through: each rule drives a cache
/// only through the protocol (lookups, insertions, removals, counts) and reads the engine under
/// it for what the protocol does not expose (evictions, the keys stored, the invariants). A test
/// target runs every rule × every policy for each conformer it owns: the engine in
/// `CacheLabTests`, `RecordingCache` in `RecipeClientTests`.
public enum ImageCachingContract {
    /// A rule of the contract.
    public enum Rule: String, CaseIterable, Sendable, CustomStringConvertible {
        case aLookupAfterAnInsertHits
        case anEntryLargerThanTheCapacityIsRefusedAndEvictsNothing
        case anEntryOfExactlyTheCapacityIsAdmitted
        case unitModeCountsEntriesNotBytes
        case removeAllEmptiesWithoutCountingEvictions
        case aHitKeepsTheSizeTheEntryWasStoredWith
        case aRandomWorkloadKeepsEveryInvariantInBytes
        case aRandomWorkloadKeepsEveryInvariantInUnits

        public var description: String { rawValue }

        /// Whether `kind` is held to this rule: policies that store only under a share of the
        /// capacity, decline newcomers, or keep their own counts have suites of their own for it.
        public func applies(to kind: PolicyKind) -> Bool {
            switch self {
            case .anEntryLargerThanTheCapacityIsRefusedAndEvictsNothing: kind.admissionShare == nil
            case .anEntryOfExactlyTheCapacityIsAdmitted: kind.admissionShare == nil && !kind.mayDeclineNewEntries
            // Cacheus keeps new entries in half the capacity; CLOCK-Pro stores into half and never evicts.
            case .unitModeCountsEntriesNotBytes: kind != .cacheus && kind != .clockpro
            // LHD takes the request's size on a hit, as libCacheSim's does.
            case .aHitKeepsTheSizeTheEntryWasStoredWith: !kind.resizesOnHit
            default: true
            }
        }
    }

    /// Checks `rule` for `kind` on caches `conformer` makes around engines of `kind`; returns
    /// what broke (empty: the rule is kept).
    public static func check(_ rule: Rule, _ kind: PolicyKind, conformer: some Conformer) -> [String] {
        var failures: [String] = []
        func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
            if !condition { failures.append(what()) }
        }
        func cache(_ capacity: Int, _ mode: SizeMode = .bytes, ttl: Int64? = nil, trimRatio: Double? = nil) -> Subject {
            let configuration = kind.configuration(capacity: capacity, sizeMode: mode, ttl: ttl, trimRatio: trimRatio)
            // The engine is made and read for its policy alone (not for the conformer too), so
            // that its invariant checks, run after every operation, are specialized.
            let made = kind.withOrder(EngineMaker(configuration: configuration))
            return Subject(conformer.wrap(made.cache), engine: made.engine)
        }
        switch rule {
        case .aLookupAfterAnInsertHits:
            let subject = cache(1_000)
            expect(!subject.request(1, size: 10), "the first request hit")
            expect(subject.request(1, size: 10), "the second request missed")
            expect(subject.count == 1 && subject.totalCost == 10, "count \(subject.count), cost \(subject.totalCost)")
        case .anEntryLargerThanTheCapacityIsRefusedAndEvictsNothing:
            // Given a cache holding two entries (Cacheus keeps one: its SR queue is half the capacity)
            let subject = cache(100)
            subject.requests([1, 2], size: 40)
            let stored = Set(subject.engine.storedKeys())
            let evictions = subject.engine.evictions()
            expect(stored == (kind == .cacheus ? [2] : [1, 2]), "stored \(stored) of two entries")
            // When an entry of 101 bytes is inserted, it is refused and nothing moves
            expect(!subject.insert(3, size: 101), "an entry of 101 bytes was admitted into 100")
            expect(Set(subject.engine.storedKeys()) == stored, "stored \(subject.engine.storedKeys())")
            expect(subject.engine.evictions() == evictions, "\(subject.engine.evictions() - evictions) evictions")
        case .anEntryOfExactlyTheCapacityIsAdmitted:
            let subject = cache(100)
            subject.requests([1, 2], size: 40)
            expect(subject.insert(3, size: 100), "an entry of exactly the capacity was refused")
            expect(subject.engine.storedKeys() == [3], "stored \(subject.engine.storedKeys())")
            expect(subject.totalCost == 100, "cost \(subject.totalCost)")
        case .unitModeCountsEntriesNotBytes:
            // trimRatio 1: `size` would otherwise trim below the limit. 100: room for
            // W-TinyLFU's window (1 %) and S3-FIFO's small queue (10 %) to hold an entry.
            let subject = cache(100, .unit, trimRatio: 1)
            subject.requests(Array(1...100), size: 1_000_000)
            expect(
                subject.count == 100 && subject.totalCost == 100, "count \(subject.count), cost \(subject.totalCost)")
            expect(subject.engine.evictions() == 0, "\(subject.engine.evictions()) evictions below capacity")
            subject.requests([101], size: 5)
            expect(subject.count == 100 && subject.engine.evictions() == 1, "after one more: count \(subject.count)")
        case .removeAllEmptiesWithoutCountingEvictions:
            let subject = cache(100)
            subject.requests([1, 2, 3], size: 10)
            subject.removeAll()
            expect(subject.count == 0 && subject.totalCost == 0, "count \(subject.count), cost \(subject.totalCost)")
            expect(subject.engine.evictions() == 0, "\(subject.engine.evictions()) evictions")
            expect(!subject.request(1, size: 10), "a removed entry hit")
        case .aHitKeepsTheSizeTheEntryWasStoredWith:
            let subject = cache(3_000)
            expect(!subject.request(1, size: 30), "the first request hit")
            expect(subject.request(1, size: 900), "the second request missed")
            expect(subject.totalCost == 30, "cost \(subject.totalCost) after a hit of another size")
        case .aRandomWorkloadKeepsEveryInvariantInBytes, .aRandomWorkloadKeepsEveryInvariantInUnits:
            let units = rule == .aRandomWorkloadKeepsEveryInvariantInUnits
            // Room for W-TinyLFU's window (1 %) to hold a few entries.
            let capacity = units ? 100 : 20_000
            let subject = cache(capacity, units ? .unit : .bytes, ttl: kind == .ttl ? 50 : nil)
            // A policy that makes room itself may hold more than the capacity where its own count
            // allows (libCacheSim's LIRS: LIRSPolicyTests).
            let bounded = !subject.engine.makesRoomItself
            var random = SplitMix64(seed: 42)
            var hits = 0
            for step in 0..<3_000 {
                let key = UInt64.random(in: 0..<300, using: &random)
                let size = Int(key % 7) * 40 + 10
                switch random.next() % 10 {
                case 0: _ = subject.remove(key)
                case 1: _ = subject.insert(key, size: size, at: Int64(step))
                default: if subject.request(key, size: size, at: Int64(step)) { hits += 1 }
                }
                if bounded, subject.totalCost > capacity {
                    failures.append("cost \(subject.totalCost) over the capacity at request \(step)")
                    break
                }
                if step == 1_500 { subject.removeAll() }
            }
            expect(hits > 0, "no request hit")
        }
        return failures
    }

    /// A cache under the contract: any `ImageCaching` of ids without payload, used only through
    /// the protocol, and the engine under it, checked after every operation.
    public final class Subject {
        private var cache: any ImageCaching<UInt64, Void>
        /// What the engine under the conformer reports.
        public let engine: EngineView
        private var random = SplitMix64(seed: 2_024)
        private var served = 0

        public init(_ cache: any ImageCaching<UInt64, Void>, engine: EngineView) {
            self.cache = cache
            self.engine = engine
        }

        public var count: Int { cache.count }
        public var totalCost: Int { cache.totalCost }

        /// A simulator request: a lookup, and an insertion on a miss; whether it hit. A policy
        /// that needs the future is told a pseudo-random next use first.
        @discardableResult
        public func request(_ key: UInt64, size: Int, at now: Int64 = 0) -> Bool {
            if engine.needsFuture {
                engine.upcoming(Int64(random.next() % 1_000) + Int64(served) + 1)
                served += 1
            }
            defer { engine.checkInvariants() }
            if cache.value(forKey: key, at: now) != nil { return true }
            cache.insert((), forKey: key, size: size, at: now)
            return false
        }

        public func requests(_ keys: [UInt64], size: Int) {
            for key in keys { request(key, size: size) }
        }

        public func insert(_ key: UInt64, size: Int, at now: Int64 = 0) -> Bool {
            defer { engine.checkInvariants() }
            return cache.insert((), forKey: key, size: size, at: now)
        }

        public func remove(_ key: UInt64) -> Bool {
            defer { engine.checkInvariants() }
            return cache.removeValue(forKey: key) != nil
        }

        public func removeAll() {
            cache.removeAll()
            engine.checkInvariants()
        }
    }

    /// The engine under a conformer, read beside the protocol.
    public struct EngineView {
        public let storedKeys: () -> [UInt64]
        public let evictions: () -> Int
        public let checkInvariants: () -> Void
        public let upcoming: (Int64) -> Void
        public let needsFuture: Bool
        /// Whether the policy counts what it holds itself (`EvictionPolicy.makesRoomItself`).
        public let makesRoomItself: Bool

        /// Reads `cache`, the engine under the conformer.
        public init<Policy: EvictionPolicy>(_ cache: Cache<UInt64, Void, Policy>) {
            storedKeys = { cache.storedKeys }
            evictions = { cache.evictions }
            checkInvariants = { cache.checkInvariants() }
            upcoming = { cache.upcoming(nextUse: $0) }
            needsFuture = Policy.needsFuture
            makesRoomItself = Policy.makesRoomItself
        }
    }

    private struct EngineMaker: PolicyBody {
        typealias Made = (cache: any ImageCaching<UInt64, Void>, engine: EngineView)
        let configuration: CacheConfiguration

        func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> Made {
            let cache = Cache<UInt64, Void, Policy>(configuration: configuration, expectedCount: 4)
            return (cache, EngineView(cache))
        }
    }
}

/// A conformer of `ImageCaching` put through the contract: it is made around an engine.
public protocol Conformer {
    /// The conformer under test, around `base` (the engine itself, for the engine).
    func wrap<Base: ImageCaching<UInt64, Void>>(_ base: Base) -> any ImageCaching<UInt64, Void>
}

/// The engine itself, as the simulator and the tiers use it.
public struct EngineConformer: Conformer {
    public init() {}

    public func wrap<Base: ImageCaching<UInt64, Void>>(_ base: Base) -> any ImageCaching<UInt64, Void> { base }
}
