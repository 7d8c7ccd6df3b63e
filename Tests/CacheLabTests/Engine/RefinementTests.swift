import CacheEngine
import Testing

/// The engine finds a policy's refinements when the conformance is compiled, also for a policy
/// written outside the engine's module: a core-only policy gets every default, and one that adopts
/// a refinement has its calls made.
@Suite("Policy refinements")
struct RefinementTests {
    /// A FIFO of the eight core calls, nothing more.
    struct CoreFIFO: EvictionPolicy {
        static let summary = "first in, first out: the core calls only"
        let links = SlotLinks()
        var order = SlotList()

        init(configuration: CacheConfiguration) {}
        mutating func grow(to slotCount: Int) { links.grow(to: slotCount) }
        mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) { order.append(slot, in: links) }
        mutating func accessed(_ slot: Int32) {}
        mutating func removed(_ slot: Int32, key: UInt64) { order.remove(slot, in: links) }
        mutating func evict() -> Int32? { order.removeHead(in: links) }
        mutating func removeAll() { order.removeAll() }
        func checkedSlots() -> [Int32] { order.slots(in: links) }
    }

    /// The same FIFO, refusing odd keys and told each request's next use.
    struct PickyFIFO: AdmittingPolicy, FutureAwarePolicy {
        static let summary = "first in, first out, odd keys refused"
        var fifo: CoreFIFO
        var nextUses: [Int64] = []

        init(configuration: CacheConfiguration) { fifo = CoreFIFO(configuration: configuration) }
        mutating func grow(to slotCount: Int) { fifo.grow(to: slotCount) }
        mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) { fifo.inserted(slot, key: key, cost: cost) }
        mutating func accessed(_ slot: Int32) {}
        mutating func removed(_ slot: Int32, key: UInt64) { fifo.removed(slot, key: key) }
        mutating func evict() -> Int32? { fifo.evict() }
        mutating func removeAll() { fifo.removeAll() }
        func checkedSlots() -> [Int32] { fifo.checkedSlots() }
        mutating func admit(_ key: UInt64, cost: Int) -> Admission { key % 2 == 0 ? .store : .reject }
        mutating func upcoming(nextUse: Int64) { nextUses.append(nextUse) }
    }

    @Test func aCorePolicyGetsEveryDefault() {
        #expect(!CoreFIFO.needsFuture && !CoreFIFO.resizesOnHit && !CoreFIFO.indexesKeys)
        #expect(!CoreFIFO.makesRoomItself && !CoreFIFO.keepsGhostsInIndex)
        let cache = Cache<UInt64, Void, CoreFIFO>(configuration: CacheConfiguration(capacity: 2))
        for key: UInt64 in 1...3 { #expect(cache.insert((), forKey: key, size: 1, at: 0)) }
        #expect(cache.value(forKey: 1, at: 0) == nil)
        #expect(cache.value(forKey: 2, at: 0) != nil && cache.value(forKey: 3, at: 0) != nil)
    }

    @Test func aRefinementAdoptedOutsideTheEngineIsCalled() {
        #expect(PickyFIFO.needsFuture && !PickyFIFO.indexesKeys)
        let cache = Cache<UInt64, Void, PickyFIFO>(configuration: CacheConfiguration(capacity: 4))
        for key: UInt64 in 1...4 {
            cache.upcoming(nextUse: Int64(key) * 10)
            #expect(cache.insert((), forKey: key, size: 1, at: 0) == (key % 2 == 0))
        }
        #expect(cache.count == 2)
        #expect(cache.core.pointee.policy.nextUses == [10, 20, 30, 40])
    }

    /// The engine's own policies state their refinements by conformance, and the facts the lab
    /// reads follow from them.
    @Test func theEnginesPoliciesFactsFollowFromTheirRefinements() {
        #expect(BeladyPolicy.needsFuture && BeladySizePolicy.needsFuture && !LRUPolicy.needsFuture)
        #expect(LHDPolicy.resizesOnHit && !LRUPolicy.resizesOnHit)
        #expect(RandomPolicy.indexesKeys && LIRSPolicy.indexesKeys && HyperbolicPolicy.indexesKeys)
        #expect(LIRSPolicy.makesRoomItself && !TwoQPolicy.makesRoomItself)
        #expect(LeCaRPolicy.keepsGhostsInIndex && !ARCPolicy.keepsGhostsInIndex)
        #expect(LeCaRPolicy.victimLookahead == 3 && LRUPolicy.victimLookahead == 2)
    }
}
