import CacheEngine
import Testing

@testable import CacheLab

@Suite("Storage ledger")
struct StorageLedgerTests {
    @Test func chargesSlotArraysMadeAndGrownUnderIt() {
        let ledger = StorageLedger()
        StorageLedger.$current.withValue(ledger) {
            let array = SlotArray<Int64>(count: 10, filling: 0)
            #expect(ledger.bytes == 80)
            array.grow(to: 100, filling: 0)
            #expect(ledger.bytes == 800)
            #expect(ledger.peakBytes == 800, "a grow counts the new size, not old plus new")
        }
        #expect(ledger.bytes == 0, "the array was freed")
        #expect(ledger.peakBytes == 800)
        let outside = SlotArray<Int64>(count: 10, filling: 0)
        #expect(outside.count == 10 && ledger.bytes == 0, "nothing is charged outside the ledger's scope")
    }

    @Test func aReplayReportsItsCachesBookkeeping() {
        var trace = Trace(name: "ten")
        for key in 0..<10 { trace.append(time: Int64(key), key: UInt64(key), size: 1) }
        let result = Replay.simulate(trace, RunConfiguration(policy: .lru, capacity: 10, sizeMode: .unit))
        #expect(result.entries == 10)
        // The index alone holds at least two buckets per entry, each a key and a slot.
        #expect((result.metadataBytes ?? 0) >= 10 * 2 * (MemoryLayout<UInt64>.size + MemoryLayout<Int32>.size))
    }

    @Test(arguments: PolicyKind.allCases)
    func concurrentReplaysCountOnlyTheirOwnCache(kind: PolicyKind) async {
        let trace = ScrollScenario.named("daily-reader", seed: 7)!.makeTrace()
        let configuration = RunConfiguration(policy: kind, capacity: 300_000)
        let alone = Replay.simulate(trace, configuration).metadataBytes
        let together = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<4 { group.addTask { Replay.simulate(trace, configuration).metadataBytes } }
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        #expect(alone != nil)
        #expect(together == Array(repeating: alone, count: 4))
    }
}
