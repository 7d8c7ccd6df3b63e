import ClientModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The recipe list as the API serves it, day by day: recipes with a small and a large photo each,
/// new recipes appearing at the top, and photos replaced under new URLs (so an old URL is never
/// requested again and a cache holding it holds garbage). Or, for a feed (`Updates.continuous`),
/// items arriving at the top one by one, at any time of day, newest first.
///
/// Shared by every person of a scenario, so a population requests the same URLs.
public struct CatalogTimeline: Sendable {
    /// When the list changes.
    public enum Updates: String, Sendable, Equatable {
        /// Once a day: a catalog the API republishes (new recipes and new photos appear overnight).
        case daily
        /// As items arrive: a feed, whose top is new whenever it is loaded. Arrivals are a Poisson
        /// process at `newRecipesPerWeek`, spread over the whole day; `recipes` items are already
        /// there at time 0 (arrived at the same rate before it); photos never change.
        case continuous
    }

    /// The list on one day.
    public struct Snapshot: Sendable, Equatable {
        /// Recipe ids, top row first.
        public var order: [Int32]
        /// Per recipe id: its current small and large photo ids.
        public var smallPhoto: [Int32]
        public var largePhoto: [Int32]
    }

    /// The fixtures' cuisines with their counts among the real API's 63 recipes.
    static let cuisineWeights: [Double] = [27, 14, 6, 5, 2, 2, 2, 1, 1, 1, 1, 1]

    /// Per photo id: its URL and size in bytes.
    public private(set) var photoURLs: [String] = []
    public private(set) var photoSizes: [Int] = []
    /// Each photo's pixels, packed (`PixelSize`): the API's 150×150 thumbnails and 700×700 photos.
    public private(set) var photoPixels: [UInt32] = []

    /// The pixels of the API's small and large photos (`../shared/fixtures/README.md`).
    public static let smallPixels = PixelSize(width: 150, height: 150)
    public static let largePixels = PixelSize(width: 700, height: 700)
    /// Per recipe id: its cuisine (an index into the fixtures' 12 cuisines).
    public private(set) var cuisine: [UInt8] = []
    /// `snapshots[day]` is the list on `day`; unchanged days share storage. A feed
    /// (`.continuous`) has one, its whole history: `snapshot(onDay:at:)` cuts it at a time.
    public private(set) var snapshots: [Snapshot] = []
    public let updates: Updates
    /// A feed's arrival time of each item, by id (oldest first), in seconds of trace time: the
    /// backlog's at or before 0. Empty for a daily catalog.
    public private(set) var arrivals: [Double] = []

    /// - Parameters:
    ///   - recipes: recipes on day 0 (the real API has 63).
    ///   - days: days the timeline covers.
    ///   - newRecipesPerWeek: recipes added at the top, on average.
    ///   - photoChangesPerWeek: recipes whose photos get new URLs, on average.
    ///   - seed: the random stream's seed: the same seed, the same timeline.
    ///   - origin: the photos' URL origin.
    ///   - updates: once a day (a catalog) or as items arrive (a feed).
    public init(
        recipes: Int, days: Int, newRecipesPerWeek: Double = 0, photoChangesPerWeek: Double = 0, seed: UInt64,
        origin: String = "https://recipes.example", updates: Updates = .daily
    ) {
        precondition(recipes > 0 && days > 0, "a catalog needs recipes and days")
        self.updates = updates
        if updates == .continuous {
            precondition(photoChangesPerWeek == 0, "a feed's photos never change")
            makeFeed(backlog: recipes, days: days, perWeek: newRecipesPerWeek, seed: seed, origin: origin)
            return
        }
        var random = SplitMix64(seed: seed ^ 0xCA7A_1060_0000_0001)
        var snapshot = Snapshot(order: [], smallPhoto: [], largePhoto: [])
        func addRecipe(_ random: inout SplitMix64) -> Int32 {
            let id = Int32(snapshot.smallPhoto.count)
            cuisine.append(UInt8(Self.weightedIndex(Self.cuisineWeights, &random)))
            let (small, large) = addPhotos(&random, origin: origin)
            snapshot.smallPhoto.append(small)
            snapshot.largePhoto.append(large)
            return id
        }
        snapshot.order = (0..<recipes).map { _ in addRecipe(&random) }
        snapshots.append(snapshot)
        for _ in 1..<max(days, 1) {
            let added = Self.count(perDay: newRecipesPerWeek / 7, &random)
            let changed = Self.count(perDay: photoChangesPerWeek / 7, &random)
            if added > 0 {
                let fresh = (0..<added).map { _ in addRecipe(&random) }
                snapshot.order = fresh.reversed() + snapshot.order
            }
            for _ in 0..<changed {
                let recipe = Int(random.next() % UInt64(snapshot.smallPhoto.count))
                let (small, large) = addPhotos(&random, origin: origin)
                snapshot.smallPhoto[recipe] = small
                snapshot.largePhoto[recipe] = large
            }
            snapshots.append(snapshot)
        }
    }

    /// A feed: `backlog` items already there, then arrivals at `perWeek` over `days` days.
    private mutating func makeFeed(backlog: Int, days: Int, perWeek: Double, seed: UInt64, origin: String) {
        precondition(perWeek > 0, "a feed needs items arriving")
        var random = SplitMix64(seed: seed ^ 0xFEED_0A77_1BA1_0001)
        let gap = 7 * 86_400 / perWeek
        var snapshot = Snapshot(order: [], smallPhoto: [], largePhoto: [])
        var time = 0.0
        var times: [Double] = []
        for _ in 0..<backlog {
            time -= gap * -log(1 - random.nextUnit())
            times.append(time)
        }
        arrivals = times.reversed()
        time = 0
        let end = Double(days) * 86_400
        while true {
            time += gap * -log(1 - random.nextUnit())
            if time >= end { break }
            arrivals.append(time)
        }
        for _ in arrivals {
            cuisine.append(UInt8(Self.weightedIndex(Self.cuisineWeights, &random)))
            let (small, large) = addPhotos(&random, origin: origin)
            snapshot.smallPhoto.append(small)
            snapshot.largePhoto.append(large)
        }
        snapshots = [snapshot]
    }

    /// The list on `day` (the last day's for later days).
    public func snapshot(onDay day: Int) -> Snapshot {
        snapshots[min(max(day, 0), snapshots.count - 1)]
    }

    /// The list as it is loaded at `seconds` of trace time on `day`: a catalog's list of that day;
    /// a feed's items arrived by then, newest first.
    public func snapshot(onDay day: Int, at seconds: Double) -> Snapshot {
        guard updates == .continuous else { return snapshot(onDay: day) }
        var snapshot = snapshots[0]
        let arrived = arrivals.partitioningIndex { $0 > seconds }
        snapshot.order = (0..<Int32(arrived)).reversed()
        return snapshot
    }

    // Photo folders are fresh uuids (not the recipe's), as in the real API; sizes as its photos':
    // small 8–14 KB, large 60–140 KB.
    private mutating func addPhotos(_ random: inout SplitMix64, origin: String) -> (Int32, Int32) {
        let folder = Self.uuid(&random)
        let small = Int32(photoURLs.count)
        photoURLs.append("\(origin)/photos/\(folder)/small.jpg")
        photoSizes.append(Int.random(in: 8_000...14_000, using: &random))
        photoPixels.append(Self.smallPixels.packed)
        photoURLs.append("\(origin)/photos/\(folder)/large.jpg")
        photoSizes.append(Int.random(in: 60_000...140_000, using: &random))
        photoPixels.append(Self.largePixels.packed)
        return (small, small + 1)
    }

    /// A version-4-shaped UUID string drawn from `random`.
    static func uuid(_ random: inout SplitMix64) -> String {
        let hex =
            String(random.next(), radix: 16).leftPadded(to: 16) + String(random.next(), radix: 16).leftPadded(to: 16)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    static func weightedIndex(_ weights: [Double], _ random: inout SplitMix64) -> Int {
        var target = random.nextUnit() * weights.reduce(0, +)
        for (index, weight) in weights.enumerated() {
            if target < weight { return index }
            target -= weight
        }
        return weights.count - 1
    }

    // A whole number of events with mean `rate`: the integer part, plus one with the fraction's probability.
    static func count(perDay rate: Double, _ random: inout SplitMix64) -> Int {
        let whole = rate.rounded(.down)
        return Int(whole) + (random.nextUnit() < rate - whole ? 1 : 0)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
