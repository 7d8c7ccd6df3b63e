import CacheEngine
import ClientModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A population of feed readers measured the way the published studies measured Facebook's: the
/// figures the population's parameters were set or fitted from, and the ones it must then
/// reproduce. The DocC article Workloads has the table, each figure with its source.
///
/// The studies watched browsers, so the population is measured as a browser would see it: its
/// list is a web page (a photo loads once per page load; scrolling back asks for nothing), its
/// cache is the browser's (`browserCache` bytes, least recently used out), and that cache is
/// emptied now and then by everything else the browser does (a Poisson process of
/// `lossesPerHour`): Albrecht (2015) found a mobile browser's cache often empty or young. An
/// app's own disk is not shared with other sites, so the app's kinds run the same people in a
/// lazy list against no such losses.
public struct FeedCalibration: Sendable {
    /// What the population did, as the studies report it.
    public struct Aggregates: Sendable, Equatable {
        /// Sessions a day per person (mean over people of sessions ÷ days).
        public var visitsPerDay: Double
        /// Seconds a session lasts (mean over sessions).
        public var secondsPerVisit: Double
        /// Seconds of a session per card it shows (sessions' seconds ÷ the rows that came into
        /// the viewport, each time they did).
        public var secondsPerCard: Double
        /// The share of the items that arrived while a person used the feed which they ever
        /// saw (mean over people).
        public var readShare: Double
        /// The share of photo requests the browser's cache served (all people's requests).
        public var browserHitRatio: Double
        /// The share of page loads (session starts) that found the cache emptied since the last.
        public var emptyCacheShare: Double
        /// The share of page loads that found the cache filled at most 12 hours before.
        public var youngCacheShare: Double
    }

    /// One published figure beside the population's: what it is, where it comes from, and how
    /// close the population must come.
    public struct Row: Sendable, Equatable {
        /// What the figure did for the population.
        public enum Role: String, Sendable {
            /// A parameter was set from it directly.
            case set
            /// A parameter was fitted until the population reproduced it.
            case fitted
            /// Nothing was set from it: the population must reproduce it.
            case checked
            /// The population does not reproduce it; the article Workloads says why.
            case notReproduced = "not reproduced"
        }

        public var figure: String
        public var source: String
        public var published: Double
        public var ours: Double
        /// How far `ours` may be from `published` (the figure's unit); nil for `notReproduced`.
        public var tolerance: Double?
        /// The figure is a share (shown as a percentage; the tolerance in points).
        public var isShare: Bool
        public var role: Role

        /// Whether the population reproduces the figure within the tolerance.
        public var holds: Bool { tolerance.map { abs(ours - published) <= $0 + 1e-12 } ?? false }
    }

    /// The population's figures beside the published ones, in the article's order.
    public func rows(_ aggregates: Aggregates) -> [Row] {
        [
            Row(
                figure: "visits to the feed a day, per person", source: "IDC for Facebook, 2013", published: 13.8,
                ours: aggregates.visitsPerDay, tolerance: 1, isShare: false, role: .fitted),
            Row(
                figure: "seconds a visit", source: "IDC for Facebook, 2013 (2 min 22 s)", published: 142,
                ours: aggregates.secondsPerVisit, tolerance: 10, isShare: false, role: .set),
            Row(
                figure: "seconds a card is on screen", source: "Facebook ad research, 2016 (Adweek)", published: 1.7,
                ours: aggregates.secondsPerCard, tolerance: 0.15, isShare: false, role: .set),
            Row(
                figure: "share of the feed's stories read", source: "Backstrom (Facebook), 2013", published: 0.57,
                ours: aggregates.readShare, tolerance: 0.03, isShare: true, role: .fitted),
            Row(
                figure: "mobile page loads finding the cache at most 12 h old (of those finding it)",
                source: "Albrecht (Facebook), 2015", published: 0.5, ours: aggregates.youngCacheShare, tolerance: 0.05,
                isShare: true, role: .fitted),
            Row(
                figure: "photo requests the browser's cache served", source: "Huang et al., SOSP 2013",
                published: 0.655, ours: aggregates.browserHitRatio, tolerance: 0.10, isShare: true, role: .checked),
            Row(
                figure: "mobile page loads finding the cache empty", source: "Albrecht (Facebook), 2015",
                published: 0.269, ours: aggregates.emptyCacheShare, tolerance: nil, isShare: true,
                role: .notReproduced),
        ]
    }

    /// The population: one trace per person of `scenario`, each replayed on its own.
    public var scenario: ScrollScenario
    /// The browser's disk cache, in bytes.
    public var browserCache: Int
    /// How often, per hour, the browser's cache loses everything the feed put there.
    public var lossesPerHour: Double
    /// The share of the span at the start that warms the cache and is not counted (Huang et al.
    /// warmed their browser simulation on the first quarter of the month).
    public var warmUp: Double

    public init(scenario: ScrollScenario, browserCache: Int, lossesPerHour: Double, warmUp: Double = 0.25) {
        self.scenario = scenario
        self.browserCache = browserCache
        self.lossesPerHour = lossesPerHour
        self.warmUp = warmUp
    }

    /// The population as Facebook's studies saw it: `feed-population` on the web, in Chromium's
    /// default disk cache (80 MiB, `kDefaultCacheSize`), losing it at the rate fitted to
    /// Albrecht's empty caches.
    public static let facebook: FeedCalibration = {
        var scenario = ScrollScenario.feedPopulation
        scenario.list = .webPage
        return FeedCalibration(scenario: scenario, browserCache: 80 << 20, lossesPerHour: fittedLossesPerHour)
    }()

    /// Losses an hour of the browser's cache, fitted so that the population's page loads find it
    /// empty as often as Albrecht's mobile ones (26.9 %).
    public static let fittedLossesPerHour = 0.05

    /// Measures every person of the scenario.
    public func measure() -> Aggregates {
        let timeline = scenario.makeTimeline()
        var visitsPerDay = 0.0
        var visitSeconds = 0.0
        var visits = 0
        var rowsShown = 0
        var readShares = 0.0
        var requests = 0
        var hits = 0
        var pageLoads = 0
        var empty = 0
        var young = 0
        let personas = scenario.personas()
        let span = Double(scenario.days) * 86_400_000
        let counted = Int64(span * warmUp)
        for (user, persona) in personas.enumerated() {
            let output = scenario.simulate(user: user, persona: persona, on: timeline)
            guard let first = output.sessions.first, let last = output.sessions.last else { continue }
            visitsPerDay += Double(output.sessions.count) / Double(scenario.days)
            for session in output.sessions {
                visits += 1
                visitSeconds += Double(session.end - session.start) / 1_000
            }
            rowsShown += output.rowsShown
            readShares += readShare(output, timeline: timeline, from: first.start, to: last.end)

            // The browser: its cache, emptied at the losses' times.
            let cache = Cache<UInt64, Void, LRUPolicy>(configuration: CacheConfiguration(capacity: browserCache))
            var losses = SplitMix64(seed: scenario.seed ^ 0x1055_0F_CAC4E ^ UInt64(user) &* 0x9E37_79B9_7F4A_7C15)
            var nextLoss = Int64.max
            func drawLoss(after time: Int64) {
                guard lossesPerHour > 0 else { return }
                nextLoss = time + Int64(-log(1 - losses.nextUnit()) / lossesPerHour * 3_600_000)
            }
            drawLoss(after: 0)
            // The cache's content dates from (the first page load after the last loss).
            var filledAt: Int64?
            var session = 0
            for index in output.photos.indices {
                let time = output.times[index]
                while session < output.sessions.count, output.sessions[session].position <= index {
                    let start = output.sessions[session].start
                    var lost = false
                    while nextLoss <= start {
                        cache.removeAll()
                        lost = true
                        drawLoss(after: nextLoss)
                    }
                    if start >= counted {
                        pageLoads += 1
                        if lost || filledAt == nil {
                            empty += 1
                        } else if let filledAt, start - filledAt <= 12 * 3_600_000 {
                            young += 1
                        }
                    }
                    if lost || filledAt == nil { filledAt = start }
                    session += 1
                }
                while nextLoss <= time {
                    cache.removeAll()
                    filledAt = nil
                    drawLoss(after: nextLoss)
                }
                let photo = UInt64(output.photos[index])
                let hit = cache.value(forKey: photo, at: time) != nil
                if !hit {
                    _ = cache.insertAfterMiss((), forKey: photo, size: timeline.photoSizes[Int(photo)], at: time)
                }
                if time >= counted {
                    requests += 1
                    if hit { hits += 1 }
                }
            }
        }
        let people = Double(personas.count)
        return Aggregates(
            visitsPerDay: visitsPerDay / people, secondsPerVisit: visitSeconds / Double(max(visits, 1)),
            secondsPerCard: visitSeconds / Double(max(rowsShown, 1)), readShare: readShares / people,
            browserHitRatio: Double(hits) / Double(max(requests, 1)),
            emptyCacheShare: Double(empty) / Double(max(pageLoads, 1)),
            youngCacheShare: Double(young) / Double(max(pageLoads - empty, 1)))
    }

    /// The share of the items that arrived between `start` and `end` (ms) which the person saw.
    private func readShare(
        _ output: ListSimulator.Output, timeline: CatalogTimeline, from start: Int64, to end: Int64
    )
        -> Double
    {
        let snapshot = timeline.snapshot(onDay: 0)
        var itemOfPhoto: [Int32: Int] = [:]
        for (item, photo) in snapshot.largePhoto.enumerated() { itemOfPhoto[photo] = item }
        for (item, photo) in snapshot.smallPhoto.enumerated() { itemOfPhoto[photo] = item }
        var seen = Set<Int>()
        for photo in output.photos { if let item = itemOfPhoto[photo] { seen.insert(item) } }
        var arrived = 0
        var read = 0
        for (item, time) in timeline.arrivals.enumerated()
        where Double(start) / 1_000 < time && time <= Double(end) / 1_000 {
            arrived += 1
            if seen.contains(item) { read += 1 }
        }
        return arrived == 0 ? 0 : Double(read) / Double(arrived)
    }
}
