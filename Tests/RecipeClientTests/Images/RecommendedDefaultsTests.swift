import CacheLab
import ClientModel
import Foundation
import Testing

@testable import RecipeClient

/// The client's defaults are the tuner's: `results/recommended-defaults.json` (written by
/// `cachelab tune`) and `ClientConfiguration.recommended` (the Swift the tuner generated from the
/// same run) must name the same tiers, and a pipeline given no configuration must run them.
@Suite("Recommended defaults: the tuner sets the client's defaults")
struct RecommendedDefaultsTests {
    struct Tier: Decodable {
        var policy: String
        var capacityBytes: Int
        var ttlS: Int64?
        var ttlMode: String
    }

    struct Defaults: Decodable {
        var kind: String
        var memory: Tier
        var disk: Tier
    }

    struct Answers: Decodable {
        var kinds: [Defaults]
    }

    /// `results/recommended-defaults.json` in this repository: this file is
    /// `Tests/RecipeClientTests/Images/RecommendedDefaultsTests.swift`, four levels below the root.
    static func committedDefaults() throws -> [Defaults] {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 {
            root.deleteLastPathComponent()
        }
        let data = try Data(contentsOf: root.appendingPathComponent("results/recommended-defaults.json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Answers.self, from: data).kinds
    }

    static func expectSame(_ tier: TierConfiguration?, _ json: Tier) {
        #expect(tier?.policy.rawValue == json.policy)
        #expect(tier?.capacity == json.capacityBytes)
        #expect(tier?.ttl == json.ttlS.map { $0 * 1000 })
        #expect(tier?.ttlMode.rawValue == json.ttlMode)
    }

    @Test func theCompiledDefaultsAreTheTunersRecommendation() throws {
        // Every kind of app has its answer, compiled as the JSON gives it
        let answers = try Self.committedDefaults()
        #expect(answers.map(\.kind) == AppKind.allCases.map(\.rawValue))
        for answer in answers {
            let kind = try #require(AppKind(rawValue: answer.kind))
            Self.expectSame(ClientConfiguration.recommended(for: kind).memory, answer.memory)
            Self.expectSame(ClientConfiguration.recommended(for: kind).disk, answer.disk)
        }
        // and the recipe list's own default is the small catalog's
        #expect(ClientConfiguration.recommended == ClientConfiguration.recommended(for: .smallCatalog))
    }

    @Test func aPipelineGivenNoConfigurationRunsTheRecommendedTiers() throws {
        try StoreFixtures.withStorePath { path in
            let pipeline = try ImagePipeline(diskPath: path, downloader: URLSessionImageDownloader(), at: 0)
            #expect(pipeline.client == .recommended)
            #expect(pipeline.client.memory != nil && pipeline.client.disk != nil)
        }
    }
}
