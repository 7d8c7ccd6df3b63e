import CacheLab
import ClientModel

extension FixtureCatalog {
    /// The real API's cuisines, in the order of `CatalogTimeline`'s cuisine indices.
    static let cuisines = [
        "British", "American", "French", "Canadian", "Malaysian", "Tunisian", "Polish", "Italian", "Greek",
        "Portuguese", "Russian", "Croatian",
    ]

    /// A generated catalog of `recipes` recipes, the same for the same seed.
    ///
    /// Its photo folders and sizes are `CatalogTimeline`'s for that seed, so a scroll scenario with
    /// the same seed requests exactly the photos this catalog serves.
    public static func generated(recipes: Int = 63, seed: UInt64 = 1) -> FixtureCatalog {
        FixtureCatalog(timeline: CatalogTimeline(recipes: recipes, days: 1, seed: seed), seed: seed)
    }

    /// A catalog listing `timeline`'s recipes as on `day`, and serving the photos of every day.
    ///
    /// Names, uuids and links are invented from `seed`; about 5 in 63 recipes lack `source_url`
    /// and 1 in 63 lacks `youtube_url`, as in the real API.
    public init(timeline: CatalogTimeline, day: Int = 0, seed: UInt64) {
        var photos: [Photo] = []
        for (index, url) in timeline.photoURLs.enumerated() {
            // CatalogTimeline's URLs end in `/photos/<folder>/<file>`.
            let parts = url.split(separator: "/").suffix(2).map(String.init)
            photos.append(
                Photo(folder: parts[0], file: parts[1], size: timeline.photoSizes[index], isLarge: index % 2 == 1))
        }
        let snapshot = timeline.snapshot(onDay: day)
        let count = timeline.cuisine.count
        var chooser = SplitMix64(seed: seed ^ 0x11_4B5F_0C47)
        let ids = Array(0..<count).shuffled(using: &chooser)
        let withoutSource = Set(ids.prefix(Int((Double(count) * 5 / 63).rounded())))
        let withoutVideo = Set(ids.suffix(max(1, Int((Double(count) / 63).rounded()))))
        var used: Set<String> = []
        let recipes = snapshot.order.map { id -> Recipe in
            let recipe = Int(id)
            var random = SplitMix64(seed: seed &+ 0x4EC1_9E00 &+ UInt64(recipe) &* 0x9E37_79B9_7F4A_7C15)
            let name = Self.inventName(&random, avoiding: &used)
            let slug = name.lowercased().split(separator: " ").joined(separator: "-")
            return Recipe(
                cuisine: Self.cuisines[Int(timeline.cuisine[recipe]) % Self.cuisines.count],
                name: name,
                uuid: Self.uuid(&random),
                sourceURL: withoutSource.contains(recipe) ? nil : "https://recipes.example/\(slug)",
                youtubeURL: withoutVideo.contains(recipe)
                    ? nil : "https://www.youtube.com/watch?v=\(Self.videoID(&random))",
                smallPhoto: photos[Int(snapshot.smallPhoto[recipe])],
                largePhoto: photos[Int(snapshot.largePhoto[recipe])])
        }
        self.init(recipes: recipes, extraPhotos: photos)
    }

    private static let adjectives = [
        "Baked", "Braised", "Classic", "Creamy", "Crispy", "Grilled", "Honey", "Lemon", "Roast", "Rustic",
        "Slow-Cooked",
        "Smoky", "Spiced", "Sticky", "Sweet", "Wild",
    ]
    private static let dishes = [
        "Apple Tart", "Bean Stew", "Beef Pie", "Berry Crumble", "Cabbage Rolls", "Carrot Cake", "Cheese Scones",
        "Chicken Curry", "Chocolate Pudding", "Fish Cakes", "Ginger Biscuits", "Lamb Hotpot", "Lentil Soup",
        "Mushroom Risotto", "Onion Tart", "Pancakes", "Pear Cake", "Plum Dumplings", "Pork Stew", "Potato Gratin",
        "Rice Pudding", "Salmon Bake", "Treacle Sponge", "Walnut Bread",
    ]

    // A name not yet used: an adjective and a dish, numbered once the combinations run out.
    private static func inventName(_ random: inout SplitMix64, avoiding used: inout Set<String>) -> String {
        var name = ""
        for attempt in 0... {
            let base = "\(adjectives.randomElement(using: &random)!) \(dishes.randomElement(using: &random)!)"
            name = attempt < 8 ? base : "\(base) \(attempt)"
            if used.insert(name).inserted { break }
        }
        return name
    }

    /// A version-4-shaped UUID string drawn from `random`.
    static func uuid(_ random: inout SplitMix64) -> String {
        let hex = Array(hex16(random.next()) + hex16(random.next()))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func videoID(_ random: inout SplitMix64) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<11).map { _ in alphabet[Int(random.next() % 64)] })
    }
}
