import CacheEngine
import Foundation
import Testing

/// `cachelab policies`: the registry's facts as scripts read them (`scripts/conformance` keeps no
/// policy list of its own), one object per policy, each fact the policy's own.
@Suite struct PoliciesCommandTests {
    struct Facts: Decodable, Equatable {
        var name: String
        var summary: String
        var libcachesim: String?
        var drawsRandomly: Bool
        var needsFuture: Bool
        var ordersByRecency: Bool
        var mayDeclineNewEntries: Bool
    }

    @Test func jsonListsEveryPolicyWithTheFactsItStates() throws {
        let output = try Binary.run(["policies", "--format", "json"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("\"libcachesim\" : null"), "a policy libCacheSim lacks has a null, not no key")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase  // the JSON's keys: draws_randomly, ...
        let facts = try decoder.decode([Facts].self, from: Data(output.stdout.utf8))
        #expect(facts.map(\.name) == PolicyKind.allCases.map(\.rawValue))
        for (fact, kind) in zip(facts, PolicyKind.allCases) {
            #expect(fact.summary == kind.summary)
            #expect(fact.libcachesim == kind.libCacheSimName)
            #expect(fact.drawsRandomly == kind.drawsRandomly)
            #expect(fact.needsFuture == kind.needsFuture)
            #expect(fact.ordersByRecency == kind.ordersByRecency)
            #expect(fact.mayDeclineNewEntries == kind.mayDeclineNewEntries)
        }
        // What the conformance check reads: 24 policies equal to libCacheSim's, the two that
        // need the future among them, the six that draw from its generator.
        let exact = facts.filter { $0.libcachesim != nil }
        #expect(exact.count == 24)
        #expect(Set(exact.filter(\.needsFuture).map(\.name)) == ["belady", "beladysize"])
        #expect(
            Set(exact.filter(\.drawsRandomly).map(\.name))
                == ["random", "hyperbolic", "beladysize", "lecar", "cacheus", "lhd"])
        // The presets and Caffeine's adaptive W-TinyLFU have no libCacheSim twin.
        #expect(Set(facts.filter { $0.libcachesim == nil }.map(\.name)) == ["size", "ttl", "wtinylfu-adaptive"])
    }

    @Test func theTableHasOneLinePerPolicy() throws {
        let output = try Binary.run(["policies"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == PolicyKind.allCases.count + 1)
        #expect(lines.contains { $0.hasPrefix("lru ") && $0.contains("LRU") })
    }
}
