import ClientModel

/// The recipe list as the API serves it, day by day: recipes with a small and a large photo each,
/// new recipes appearing at the top, and photos replaced under new URLs (so an old URL is never
/// requested again and a cache holding it holds garbage).
///
/// Shared by every person of a scenario, so a population requests the same URLs.
public struct CatalogTimeline: Sendable {
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
    /// `snapshots[day]` is the list on `day`; unchanged days share storage.
    public private(set) var snapshots: [Snapshot] = []

    /// - Parameters:
    ///   - recipes: recipes on day 0 (the real API has 63).
    ///   - days: days the timeline covers.
    ///   - newRecipesPerWeek: recipes added at the top, on average.
    ///   - photoChangesPerWeek: recipes whose photos get new URLs, on average.
    ///   - seed: the random stream's seed: the same seed, the same timeline.
    ///   - origin: the photos' URL origin.
    public init(
        recipes: Int, days: Int, newRecipesPerWeek: Double = 0, photoChangesPerWeek: Double = 0, seed: UInt64,
        origin: String = "https://recipes.example"
    ) {
        precondition(recipes > 0 && days > 0, "a catalog needs recipes and days")
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

    /// The list on `day` (the last day's for later days).
    public func snapshot(onDay day: Int) -> Snapshot {
        snapshots[min(max(day, 0), snapshots.count - 1)]
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
