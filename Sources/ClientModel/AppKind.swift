/// The kinds of image-heavy list app `cachelab tune` answers for, each on workloads of its own
/// (the lab's `AppKind.scenarios`): the client ships the answer for its kind
/// (`ClientConfiguration.recommended(for:)`).
public enum AppKind: String, Sendable, CaseIterable, Codable {
    /// A catalog of tens of items people come back to again and again (the recipe API's 63).
    case smallCatalog = "small-catalog"
    /// A list of thousands to a hundred thousand items, new ones at the top each day.
    case longList = "long-list"
    /// A feed of cards, new items arriving all day, read in many short visits.
    case endlessFeed = "endless-feed"
}
