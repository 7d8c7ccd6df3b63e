import CacheLabLocking

/// A `RecipeStore` in memory: survives a new list model, not a new process (`keepsFavourites` is
/// false). For tests, and for a client whose disk could not be opened.
public final class InMemoryRecipeStore: RecipeStore, Sendable {
    private let saved = Locked<(json: [UInt8], at: Int64)?>(nil)
    private let favourites = Locked<[StoredFavourite]>([])

    public init(json: [UInt8]? = nil, at now: Int64 = 0, favourites: [StoredFavourite] = []) {
        if let json {
            saved.withLock { $0 = (json, now) }
        }
        self.favourites.withLock { $0 = favourites }
    }

    public func loadLastGoodList() -> [UInt8]? {
        saved.withLock { $0?.json }
    }

    public func saveLastGoodList(_ json: [UInt8], at now: Int64) {
        saved.withLock { $0 = (json, now) }
    }

    public func lastGoodListSavedAt() -> Int64? {
        savedAt
    }

    /// When the list was last saved, or `nil` if never.
    public var savedAt: Int64? {
        saved.withLock { $0?.at }
    }

    public var keepsFavourites: Bool { false }

    public func loadFavourites() -> [StoredFavourite] {
        favourites.withLock { $0 }
    }

    public func saveFavourite(_ favourite: StoredFavourite) {
        favourites.withLock { list in
            list.removeAll { $0.uuid == favourite.uuid }
            list.append(favourite)
        }
    }

    public func removeFavourite(uuid: String) {
        favourites.withLock { $0.removeAll { $0.uuid == uuid } }
    }
}
