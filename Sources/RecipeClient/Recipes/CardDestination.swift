import Foundation

/// Where tapping a recipe's card in the list leads (`Recipe.cardDestination`).
public enum CardDestination: Sendable, Equatable {
    /// The recipe's detail screen, which plays its YouTube video.
    case detail
    /// The recipe's source page, opened in a browser: the recipe has no video, only this link.
    case source(URL)
    /// Nowhere: the recipe has neither link, so its card cannot be tapped.
    case none
}
