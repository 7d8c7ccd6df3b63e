/// Keeps the last recipe list that was fetched successfully, so it can be shown with an error even
/// after a relaunch.
///
/// The list is opaque JSON bytes (the model encodes a `RecipeList`); the store keeps one list, and
/// a save replaces it. `now` is the caller's clock in milliseconds since 1970 (time is an input).
/// Loading returns `nil` when nothing was saved. Errors are the store's own (a SQLite store throws
/// its `StoreError`); the list model treats a failed load as no list and a failed save as not
/// saved, since the fetched list is still on screen.
public protocol LastGoodListStore {
    func loadLastGoodList() throws -> [UInt8]?
    func saveLastGoodList(_ json: [UInt8], at now: Int64) throws
    /// When the saved list was saved (the `now` of its save), or nil if none is or the store does
    /// not know.
    func lastGoodListSavedAt() throws -> Int64?
}

extension LastGoodListStore {
    public func lastGoodListSavedAt() throws -> Int64? { nil }
}
