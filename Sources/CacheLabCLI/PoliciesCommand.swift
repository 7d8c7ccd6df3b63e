import ArgumentParser
import CacheEngine
import Foundation

/// `cachelab policies`: every policy with the facts it states about itself (`PolicyDescription`),
/// as a table for people or JSON for scripts (`scripts/conformance` reads it instead of keeping
/// its own lists). Parse → emit: the registry is the plan.
struct PoliciesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policies",
        abstract: "List every policy and its facts: libCacheSim's name, seeded draws, whether it needs the future.",
        discussion: """
            A policy with a libCacheSim name equals libCacheSim 0.3.5's policy of that name miss for \
            miss (scripts/conformance checks it). One that needs the future (each request's next \
            use) runs in the simulator and a single tier only, not in a client's tiers or live.

            Examples:
              cachelab policies
              cachelab policies --format json > policies.json
            """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case table
        case json
    }

    @Option(help: "table (for reading) or json (one object per policy, for scripts).")
    var format: Format = .table

    /// One policy's facts, as the JSON has them.
    struct Facts: Encodable {
        var name: String
        var summary: String
        var libcachesim: String?
        var drawsRandomly: Bool
        var needsFuture: Bool
        var ordersByRecency: Bool
        var mayDeclineNewEntries: Bool

        init(_ kind: PolicyKind) {
            name = kind.rawValue
            summary = kind.summary
            libcachesim = kind.libCacheSimName
            drawsRandomly = kind.drawsRandomly
            needsFuture = kind.needsFuture
            ordersByRecency = kind.ordersByRecency
            mayDeclineNewEntries = kind.mayDeclineNewEntries
        }

        enum CodingKeys: String, CodingKey {
            case name, summary, libcachesim
            case drawsRandomly = "draws_randomly"
            case needsFuture = "needs_future"
            case ordersByRecency = "orders_by_recency"
            case mayDeclineNewEntries = "may_decline_new_entries"
        }

        /// Every key always present: a policy libCacheSim lacks has `"libcachesim": null`.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(summary, forKey: .summary)
            try container.encode(libcachesim, forKey: .libcachesim)
            try container.encode(drawsRandomly, forKey: .drawsRandomly)
            try container.encode(needsFuture, forKey: .needsFuture)
            try container.encode(ordersByRecency, forKey: .ordersByRecency)
            try container.encode(mayDeclineNewEntries, forKey: .mayDeclineNewEntries)
        }
    }

    func run() throws {
        let facts = PolicyKind.allCases.map(Facts.init)
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(facts), as: UTF8.self))
        case .table:
            let width = facts.map(\.name.count).max() ?? 0
            print("policy".padding(width) + "  libCacheSim  seeded  future  summary")
            for fact in facts {
                print(
                    fact.name.padding(width) + "  " + (fact.libcachesim ?? "-").padding(11) + "  "
                        + (fact.drawsRandomly ? "yes" : "no").padding(6) + "  "
                        + (fact.needsFuture ? "yes" : "no").padding(6) + "  " + fact.summary)
            }
        }
    }
}
