import ClientModel

extension AppKind {
    /// What the kind is, in a line.
    public var summary: String {
        switch self {
        case .smallCatalog:
            "the recipe API's 63 recipes, read over two weeks to four months by six kinds of person"
        case .longList:
            "a recipe list of 1,000 to 100,000, new recipes at the top each day, for a week to a month"
        case .endlessFeed:
            "a photo feed of 300 new cards a day, read as Facebook's heaviest readers read, for a month"
        }
    }

    /// The scroll scenarios (`ScrollScenario.presets`) the kind is tuned on.
    public var scenarioNames: [String] {
        switch self {
        case .smallCatalog:
            [
                "daily-reader", "flinger", "detail-browser", "searcher", "weekly-returner", "tablet-reader",
                "heavy-month",
            ]
        case .longList: ["feed-10k", "feed-1k-month", "feed-100k-month"]
        case .endlessFeed: ["feed-heavy-month"]
        }
    }

    /// The kind's scenarios at `seed`.
    public func scenarios(seed: UInt64 = 1) -> [ScrollScenario] {
        scenarioNames.map { ScrollScenario.named($0, seed: seed)! }
    }

    /// The most disk `tune` gives the kind by default: 64 MiB, past the catalog's and the long
    /// list's working sets but one (84 MB); a feed's, 256 MiB, more than any library's fixed disk
    /// (Glide's and Coil's 250 MiB).
    public var diskBudget: Int {
        self == .endlessFeed ? 256 << 20 : 64 << 20
    }

    /// The smallest disk and memory `tune` tries: 32 KiB, three thumbnails; for a feed of
    /// 60–140 KB photos (1.96 MB decoded), 1 MiB of disk (about ten) and 4 MiB of memory (two).
    public var smallestDisk: Int { self == .endlessFeed ? 1 << 20 : 32 << 10 }
    public var smallestMemory: Int { self == .endlessFeed ? 4 << 20 : 32 << 10 }

    /// The kind named `name` (its raw value).
    public static func named(_ name: String) -> AppKind? { AppKind(rawValue: name) }
}
