/// A generated recipe catalog shaped like the real recipe API: every recipe has a small photo
/// (about 10 KB) and a large one (about 100 KB), under a photo folder whose uuid is not the
/// recipe's, so photos must be keyed by their whole URL.
public struct RecipeCatalog: Sendable, Equatable {
    public struct Photo: Sendable, Equatable {
        public var url: String
        public var size: Int
    }

    public struct Recipe: Sendable, Equatable {
        public var uuid: String
        public var small: Photo
        public var large: Photo
    }

    public var recipes: [Recipe]

    /// Sizes follow the fixtures' README: small 8–14 KB, large 60–140 KB, drawn per photo.
    public init(count: Int = 63, seed: UInt64, origin: String = "https://recipes.example") {
        var random = SplitMix64(seed: seed ^ 0xC0FF_EE00_CA7A_1067)
        recipes = (0..<count).map { _ in
            let recipeUUID = Self.uuid(&random)
            let photoFolder = Self.uuid(&random)
            return Recipe(
                uuid: recipeUUID,
                small: Photo(
                    url: "\(origin)/photos/\(photoFolder)/small.jpg",
                    size: Int.random(in: 8_000...14_000, using: &random)),
                large: Photo(
                    url: "\(origin)/photos/\(photoFolder)/large.jpg",
                    size: Int.random(in: 60_000...140_000, using: &random)))
        }
    }

    /// A version-4-shaped UUID string drawn from `random`.
    static func uuid(_ random: inout SplitMix64) -> String {
        let high = random.next()
        let low = random.next()
        let hex = String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16)
        let chars = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
