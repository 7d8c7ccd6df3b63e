import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

/// Two ghost rings sharing one index, as ARC's B1 and B2 do: each keeps its own order and costs,
/// and the index finds a ghost of either, through compactions and growth of both rings.
@Suite("GhostRing")
struct GhostRingTests {
    @Test func twoRingsSharingAnIndexKeepTheirOwnGhostsInOrder() {
        // Given two rings, the second tagged, and a model of each as a list of (key, cost)
        var index = SlotIndex<UInt64>(minimumCapacity: 16)
        var rings = [GhostRing(capacity: 4_000), GhostRing(capacity: 3_000, tag: GhostRing.secondTag)]
        var models: [[(key: UInt64, cost: Int)]] = [[], []]
        var random = SplitMix64(seed: 42)
        // When 5,000 seeded operations add keys (which evicts the oldest past the capacity),
        // take keys from the middle and drop the oldest, on either ring
        for _ in 0..<5_000 {
            let which = Int(random.next() % 2)
            let draw = random.next() % 10
            let key = random.next() % 600
            if draw < 6 {
                let cost = Int(random.next() % 90) + 10
                if index.slot(for: key) == nil {
                    models[which].append((key, cost))
                    while models[which].reduce(0, { $0 + $1.cost }) > rings[which].capacity {
                        models[which].removeFirst()
                    }
                }
                rings[which].add(key, cost: cost, in: &index)
            } else if draw < 9 {
                guard let slot = index.slot(for: key) else { continue }
                let owner = rings[0].holds(slot) ? 0 : 1
                let place = models[owner].firstIndex { $0.key == key }!
                #expect(rings[owner].take(key, at: slot, in: &index) == models[owner][place].cost)
                models[owner].remove(at: place)
            } else if !models[which].isEmpty {
                rings[which].removeOldest(in: &index)
                models[which].removeFirst()
            }
            // Then each ring holds its model's keys in order, at its model's total cost, and
            // the shared index holds exactly the ghosts of both
            for ring in 0..<2 {
                rings[ring].checkInvariants(name: "ring \(ring)", index: index)
                #expect(rings[ring].storedKeys == models[ring].map(\.key))
                #expect(rings[ring].totalCost == models[ring].reduce(0) { $0 + $1.cost })
            }
            #expect(index.count == models[0].count + models[1].count)
        }
        // And both rings grew and compacted on the way (at most 600 keys, 16 places to start)
        #expect(rings[0].ring.count > 16 && rings[1].ring.count > 16)
    }
}
