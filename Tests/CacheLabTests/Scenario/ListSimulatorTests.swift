import Testing

@testable import CacheLab

/// The lazy list's rules, on a phone (700 pt viewport, 110 pt rows, 2 rows of prefetch: the band
/// is the viewport widened by 220 pt on each side).
@Suite("The list model")
struct ListSimulatorTests {
    static let timeline = CatalogTimeline(recipes: 63, days: 1, seed: 9)

    static func makeList() -> ListSimulator {
        ListSimulator(device: .phone, persona: .reader, timeline: timeline, seed: 1)
    }

    /// The row index of every small photo requested, in order.
    static func requestedRows(_ list: ListSimulator) -> [Int] {
        let snapshot = timeline.snapshot(onDay: 0)
        return list.output.photos.map { photo in
            list.rows.firstIndex { snapshot.smallPhoto[Int($0)] == photo }!
        }
    }

    @Test func launchRequestsTheRowsInTheBandTopDown() {
        // Given a launch at the top: the band is [-220, 920) pt, rows 0 to 8
        var list = Self.makeList()
        list.launch(day: 0)
        #expect(Self.requestedRows(list) == Array(0..<9))
    }

    @Test func aRowIsRequestedWhenItEntersThePrefetchBandNotBefore() {
        var list = Self.makeList()
        list.launch(day: 0)
        // When the list moves 99 pt, the band's bottom reaches 1,019 pt: row 9, [990, 1100), entered.
        list.move(to: 99)
        #expect(Self.requestedRows(list) == Array(0..<10))
        // Row 10 starts at 1,100 pt: at 180 pt the half-open band [-40, 1100) only touches it.
        list.move(to: 180)
        #expect(Self.requestedRows(list).count == 10)
        list.move(to: 181)
        #expect(Self.requestedRows(list) == Array(0..<11))
    }

    @Test func movingWithinTheBandRequestsNothingAgain() {
        var list = Self.makeList()
        list.launch(day: 0)
        for offset in stride(from: 0.0, through: 100, by: 0.5) { list.move(to: offset) }
        for offset in stride(from: 100.0, through: 0, by: -0.5) { list.move(to: offset) }
        // Row 9 entered once; nothing left the band, so nothing was requested twice.
        #expect(Self.requestedRows(list) == Array(0..<10))
    }

    @Test func aRowThatLeftTheBandIsRequestedAgainWhenItComesBack() {
        var list = Self.makeList()
        list.launch(day: 0)
        list.move(to: 440)  // band [220, 1360): rows 2..<13; rows 0 and 1 left
        #expect(Self.requestedRows(list) == Array(0..<13))
        list.move(to: 0)  // rows 0 and 1 come back, bottom-up; rows 9 to 12 leave
        #expect(Self.requestedRows(list) == Array(0..<13) + [1, 0])
        list.move(to: 440)  // rows 9 to 12 come back
        #expect(Self.requestedRows(list) == Array(0..<13) + [1, 0] + [9, 10, 11, 12])
    }

    @Test func rowsNeverReachedAreNeverRequested() {
        var list = Self.makeList()
        list.launch(day: 0)
        list.move(to: 1_000)  // band [780, 1920): up to row 17
        let requested = Set(Self.requestedRows(list))
        #expect(requested == Set(0..<18))
        #expect(requested.allSatisfy { $0 < 18 })
    }

    @Test func aJumpToTopOnALongListSkipsTheRowsBetweenFrames() {
        // Given a 2,000-recipe list scrolled far down
        let timeline = CatalogTimeline(recipes: 2_000, days: 1, seed: 3)
        var list = ListSimulator(device: .phone, persona: .reader, timeline: timeline, seed: 1)
        list.launch(day: 0)
        list.move(to: 150_000)
        let before = list.output.photos.count
        // When the status bar is tapped (18 frames of a 0.3 s ease-out)
        list.jumpToTop()
        // Then far fewer rows are drawn than lie between (about 1,360), and the top rows are
        let drawn = list.output.photos.count - before
        #expect(drawn < 200)
        #expect(list.offset == 0)
    }

    @Test func openingARecipeRequestsItsLargePhotoOnce() {
        var list = Self.makeList()
        list.launch(day: 0)
        let before = list.output.photos.count
        list.openRecipe()
        let snapshot = Self.timeline.snapshot(onDay: 0)
        #expect(list.output.photos.count == before + 1)
        let photo = list.output.photos.last!
        let recipe = list.rows.firstIndex { snapshot.largePhoto[Int($0)] == photo }
        // It was one of the rows on screen (rows 0 to 6 at offset 0).
        #expect(recipe.map { (0..<7).contains($0) } == true)
    }
}

@Suite("Scroll scenarios")
struct ScrollScenarioTests {
    @Test(arguments: ScrollScenario.presets.map(\.name))
    func theSameSeedGivesAByteIdenticalTrace(name: String) throws {
        let first = ScrollScenario.named(name, seed: 4)!.makeTrace()
        let second = ScrollScenario.named(name, seed: 4)!.makeTrace()
        #expect(try TraceWriter.bytes(first, format: .cachelab) == TraceWriter.bytes(second, format: .cachelab))
        #expect(first != ScrollScenario.named(name, seed: 5)!.makeTrace())
        #expect(first.count > 0)
        #expect(zip(first.times, first.times.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func aRelaunchEmptiesTheMemoryTierButNotTheDisk() {
        // With room for everything, a disk tier misses each object once; a memory tier misses
        // again after every relaunch.
        let trace = ScrollScenario.named("daily-reader")!.makeTrace()
        let unique = TraceStatistics(trace).uniqueObjects
        let disk = Replay.simulate(trace, RunConfiguration(policy: .lru, capacity: 1 << 40, tier: .disk))
        let memory = Replay.simulate(trace, RunConfiguration(policy: .lru, capacity: 1 << 40, tier: .memory))
        #expect(trace.events.contains { $0.kind == .relaunch })
        #expect(disk.misses == unique)
        #expect(memory.misses > unique)
        #expect(memory.relaunches == trace.events.filter { $0.kind == .relaunch }.count)
    }

    @Test func aPopulationSharesURLsAndHasNoAppEvents() {
        var scenario = ScrollScenario.named("mixed-population")!
        scenario.users = 5
        let trace = scenario.makeTrace()
        #expect(trace.events.isEmpty)
        var single = scenario
        single.users = 1
        // Five people request more than one, over the same catalog's URLs.
        #expect(trace.count > single.makeTrace().count)
        #expect(trace.keyNames!.allSatisfy { $0.hasPrefix("https://recipes.example/photos/") })
    }

    @Test func photoChangesBringNewURLsAndNewRecipesComeFirst() {
        let timeline = CatalogTimeline(recipes: 10, days: 30, newRecipesPerWeek: 7, photoChangesPerWeek: 7, seed: 2)
        let first = timeline.snapshot(onDay: 0)
        let last = timeline.snapshot(onDay: 29)
        #expect(last.order.count > first.order.count)
        #expect(Array(last.order.suffix(10)) == first.order)  // the old list, pushed down
        let changed = first.order.filter { first.smallPhoto[Int($0)] != last.smallPhoto[Int($0)] }
        #expect(!changed.isEmpty)
        #expect(Set(timeline.photoURLs).count == timeline.photoURLs.count)  // every photo has its own URL
    }
}
