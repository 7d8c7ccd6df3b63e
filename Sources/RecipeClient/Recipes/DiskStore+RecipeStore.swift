/// The SQLite store keeps the last good recipe list and the favourites beside the images, so they
/// survive relaunches.
extension DiskStore: RecipeStore {
    public var keepsFavourites: Bool { true }
}
