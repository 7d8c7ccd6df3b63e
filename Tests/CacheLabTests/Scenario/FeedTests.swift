import CacheEngine
import ClientModel
import Foundation
import Testing

@testable import CacheLab

/// A photo feed: items arriving all day at the top, cards showing the large photo, readers who
/// come back to items seen days before; and the population calibrated against Facebook's studies.
@Suite("The photo feed and its calibration")
struct FeedTests {
    static let feed = CatalogTimeline(
        recipes: 600, days: 14, newRecipesPerWeek: 2_100, seed: 4, updates: .continuous)

    @Test func itemsArriveAtTheRateGivenOneByOneNewestFirst() {
        // Arrival times are in order: the backlog's at or before 0, the rest within the 14 days
        let arrivals = Self.feed.arrivals
        #expect(arrivals == arrivals.sorted())
        #expect(arrivals.prefix(600).allSatisfy { $0 <= 0 })
        #expect(arrivals.dropFirst(600).allSatisfy { $0 > 0 && $0 < 14 * 86_400 })
        // 300 a day on average (a Poisson process: within 5 % over two weeks)
        let arrived = Double(arrivals.count - 600)
        #expect(abs(arrived - 14 * 300) < 0.05 * 14 * 300)

        // The list loaded at a moment is what had arrived by then, newest first
        let noon = 3.5 * 86_400
        let snapshot = Self.feed.snapshot(onDay: 3, at: noon)
        let arrivedByNoon = arrivals.filter { $0 <= noon }.count
        #expect(snapshot.order == Array((0..<Int32(arrivedByNoon)).reversed()))
        // and an hour later there is more at the top, the rest pushed down
        let later = Self.feed.snapshot(onDay: 3, at: noon + 3_600)
        #expect(later.order.count > snapshot.order.count)
        #expect(Array(later.order.suffix(snapshot.order.count)) == snapshot.order)
    }

    @Test func aCatalogUpdatedDailyIsTheSameWhateverTheHour() {
        let catalog = CatalogTimeline(recipes: 63, days: 3, newRecipesPerWeek: 7, seed: 4)
        #expect(catalog.snapshot(onDay: 1, at: 86_400 + 100) == catalog.snapshot(onDay: 1))
        #expect(catalog.arrivals.isEmpty)
    }

    @Test func aFeedsCardsShowTheLargePhotos() {
        let scenario = ScrollScenario.named("feed-heavy-month")!
        var short = scenario
        short.days = 2
        let trace = short.makeTrace()
        // Every request is a large photo (700 × 700), none a thumbnail
        #expect(trace.count > 0)
        #expect(trace.keyNames!.allSatisfy { $0.hasSuffix("/large.jpg") })
        #expect(trace.pixelSizes?.allSatisfy { $0 == CatalogTimeline.largePixels.packed } == true)
    }

    @Test func aRevisitOpensAnItemFirstSeenInAnEarlierSessionAsLongAgoAsDrawn() {
        // Given a reader who only revisits, after a week of reading
        let reader = Persona.feedRegular
        var list = ListSimulator(
            device: .cardPhone, rowPhoto: .large, persona: reader, timeline: Self.feed, seed: 7)
        list.run(days: 7)
        let seenBefore = Set(list.output.photos)
        let requestsBefore = list.output.photos.count
        // When revisits are made
        for _ in 0..<200 { list.revisit() }
        // Then each asked for one photo, of an item seen before
        let revisited = list.output.photos[requestsBefore...]
        // (a draw of more than a week finds nothing after seven days: about 28 % of them)
        #expect(revisited.count > 100 && revisited.count < 200)
        #expect(revisited.allSatisfy { seenBefore.contains($0) })
        // and the shares of the ages drawn follow Obendorf et al.'s (12 : 7.8 : 7.6)
        let weights = ListSimulator.revisitAges.map(\.share)
        #expect(weights == [12, 7.8, 7.6])
    }

    @Test func theHeavyFeedsWorkingSetIsLargerThanAnyLibrarysDisk() {
        // The regime where a disk's size could matter: a month of a heavy reader holds more
        // photos than Nuke's 150 MiB, Glide's or Coil's 250 MiB, and Fresco's 40 MiB
        let trace = ScrollScenario.named("feed-heavy-month")!.makeTrace()
        let workingSet = TraceStatistics(trace).workingSetBytes
        #expect(workingSet > 250 << 20)
        #expect(workingSet > AppKind.endlessFeed.diskBudget)
        // and no library's default at its own budget downloads only every photo once
        for preset in [ClientPreset.nuke, .glide, .coil, .fresco] {
            let run = Replay.simulate(trace, client: preset.configuration(device: .iphoneSE2))
            #expect(run.bytesDownloaded > workingSet, "\(preset)")
        }
    }

    @Test(arguments: [UInt64(1), 2])
    func theFeedPopulationReproducesThePublishedFiguresItCites(seed: UInt64) {
        // Given the population as Facebook's studies saw it (a browser, its cache, its losses)
        var calibration = FeedCalibration.facebook
        calibration.scenario.seed = seed
        let rows = calibration.rows(calibration.measure())

        // Then every figure it was set from, fitted to or checked against holds within its tolerance
        for row in rows where row.role != .notReproduced {
            #expect(row.holds, "\(row.figure): published \(row.published), ours \(row.ours)")
        }
        // and the two Facebook client-cache studies are among them
        #expect(rows.contains { $0.source.hasPrefix("Huang et al.") && $0.role == .checked })
        #expect(rows.contains { $0.source.hasPrefix("Albrecht") && $0.role == .fitted })
    }

    @Test func theKindsAreTunedOnScenariosThatExist() {
        for kind in AppKind.allCases {
            #expect(!kind.scenarioNames.isEmpty)
            #expect(kind.scenarios().map(\.name) == kind.scenarioNames, "\(kind)")
            #expect(kind.smallestDisk <= kind.diskBudget)
        }
        // A CDN's view (thirty people sharing one cache) is no app's: no kind tunes on it
        #expect(!AppKind.allCases.contains { $0.scenarioNames.contains("mixed-population") })
    }
}

extension FeedTests {
    @Test func theWorkloadsArticleShowsTheCalibrationAsMeasured() throws {
        // Tests/CacheLabTests/Scenario/FeedTests.swift is four levels below the repository's root
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/CacheLab/CacheLab.docc/Workloads.md"), encoding: .utf8)
        let rows = FeedCalibration.facebook.rows(FeedCalibration.facebook.measure())
        #expect(article.contains(CalibrationReport.markdown(rows)))
    }
}
