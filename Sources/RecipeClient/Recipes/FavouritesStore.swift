/// Keeps the recipes a person favourited, so they can be shown when the list cannot be fetched,
/// across launches.
///
/// A save replaces any favourite with the same uuid; a removal of one not saved does nothing.
/// Loading lists them oldest favourite first. Errors are the store's own; the list model keeps
/// favourites in memory whatever the store does, and says whether they outlive the process
/// (`keepsFavourites`): a SQLite store keeps them, an in-memory one, or a client whose disk fell
/// back to memory-only, does not.
public protocol FavouritesStore {
    /// Whether favourites saved here survive a relaunch.
    var keepsFavourites: Bool { get }
    func loadFavourites() throws -> [StoredFavourite]
    func saveFavourite(_ favourite: StoredFavourite) throws
    func removeFavourite(uuid: String) throws
}

/// What the recipe list model persists: the last good list and the favourites.
public typealias RecipeStore = FavouritesStore & LastGoodListStore
