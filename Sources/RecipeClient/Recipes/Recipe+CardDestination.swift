extension Recipe {
    /// Where tapping this recipe's card leads: `.detail` when it has a YouTube link (whether or
    /// not it also has a source link), else `.source` when it has a source link, else `.none`.
    public var cardDestination: CardDestination {
        if youtubeURL != nil {
            return .detail
        }
        if let sourceURL {
            return .source(sourceURL)
        }
        return .none
    }
}
