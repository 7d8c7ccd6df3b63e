import CacheEngine
import Testing

@testable import CacheLab

/// The replica of libCacheSim's `chainedHashTableV2`, on layouts worked out with the Python model
/// that reproduces libCacheSim's sampled policies (/work/notes, `models.HT`). Key k sits in slot
/// k − 1 throughout. `BlockedChainTableTests` holds Random's and Hyperbolic's table to these
/// layouts.
@Suite("ChainedHashTable: libCacheSim's chained hash table")
struct ChainedHashTableTests {
    typealias Table = ChainedHashTable

    func makeTable(hashPower: Int, keys: ClosedRange<UInt64>) -> Table {
        var table = Table(hashPower: hashPower)
        table.grow(to: 64)
        for key in keys { table.insert(Int32(key - 1), key: key) }
        _ = table.checkedSlots(name: "test")
        return table
    }

    /// Each non-empty bucket's chain, head first, as keys.
    func chains(_ table: Table) -> [Int: [UInt64]] {
        var result: [Int: [UInt64]] = [:]
        for bucket in 0..<table.bucketCount where !table.chain(bucket).isEmpty {
            result[bucket] = table.chain(bucket).map { UInt64($0) + 1 }
        }
        return result
    }

    @Test func hashesIdsAsXXH3OfTheirEightBytes() {
        // XXH3_64bits(&id, 8), seed 0, from C compiled against libCacheSim's xxh3.h
        #expect(Table.hash(0) == 14_374_147_212_387_527_897)
        #expect(Table.hash(1) == 3_439_722_301_264_460_078)
        #expect(Table.hash(2) == 2_343_778_756_980_564_547)
        #expect(Table.hash(12_345) == 11_234_342_765_698_724_289)
        #expect(Table.hash(.max) == 5_841_669_975_847_748_627)
    }

    @Test func anEntryGoesToTheHeadOfTheBucketItsHashsLowBitsName() {
        // Given 8 keys in 4 buckets (no doubling: that takes more than 2 per bucket)
        let table = makeTable(hashPower: 2, keys: 1...8)
        // Then each bucket holds its keys newest first
        #expect(table.hashPower == 2)
        #expect(chains(table) == [0: [5, 4], 1: [3], 2: [8, 1], 3: [7, 6, 2]])
        for key in UInt64(1)...8 {
            #expect(table.chain(Int(Table.hash(key) & 3)).contains(Int32(key - 1)))
        }
    }

    @Test func anInsertionIntoATableOverTwoPerBucketDoublesItFirst() {
        // Given 5 keys in 2 buckets
        var table = makeTable(hashPower: 1, keys: 1...5)
        #expect(chains(table) == [0: [5, 4, 1], 1: [3, 2]])
        // When a 6th comes, then the table doubles before it goes in: each old chain, walked from
        // its head, is pushed onto the heads of its new buckets (so each part is reversed)
        table.insert(5, key: 6)
        #expect(table.hashPower == 2)
        #expect(chains(table) == [0: [4, 5], 1: [3], 2: [1], 3: [6, 2]])
        _ = table.checkedSlots(name: "test")
    }

    @Test func samplingASparseTableHalvesItAfter32EmptyBucketsInARow() {
        // Given 8 keys in 4,096 buckets and libCacheSim's generator at its seed
        var table = makeTable(hashPower: 12, keys: 1...8)
        let random = LehmerRandom()
        // When sampled, then the table halves down to 16 buckets on the first sample, each
        // halving merging bucket b's chain and then b + half's onto the heads of bucket b
        #expect(table.sample(random) == 1)  // key 2
        #expect(table.hashPower == 4)
        #expect(chains(table) == [3: [2], 8: [4], 11: [6], 12: [5], 13: [3], 14: [8, 1], 15: [7]])
        // And later samples find it dense enough: keys 3, 1, 3, then the draw after theirs
        #expect([table.sample(random), table.sample(random), table.sample(random)] == [2, 0, 2])
        #expect(table.hashPower == 4)
        #expect(random.next() == 16_823_299_814_630_290_167)
        _ = table.checkedSlots(name: "test")
    }

    @Test func aSampleOfADenseTableDrawsABucketThenAPlaceInItsChain() {
        // Given one key in a table of 1 bucket: every sample is 2 draws (bucket, then place)
        var table = Table(hashPower: 0)
        table.grow(to: 4)
        table.insert(3, key: 42)
        let random = LehmerRandom(seed: 7)
        let reference = LehmerRandom(seed: 7)
        for _ in 0..<5 { #expect(table.sample(random) == 3) }
        for _ in 0..<10 { _ = reference.next() }
        #expect(random.next() == reference.next())
    }

    @Test func removingUnlinksFromAnywhereInAChain() {
        // Given bucket 3 holding keys 7, 6, 2
        var table = makeTable(hashPower: 2, keys: 1...8)
        // When the middle one and then the head go
        table.remove(5)  // key 6
        #expect(chains(table)[3] == [7, 2])
        table.remove(6)  // key 7
        #expect(chains(table)[3] == [2])
        #expect(table.count == 6)
        #expect(!table.contains(5) && table.contains(1))
        _ = table.checkedSlots(name: "test")
        // And emptied, the table keeps its size
        table.removeAll()
        #expect(table.count == 0 && table.hashPower == 2 && chains(table).isEmpty)
    }
}
