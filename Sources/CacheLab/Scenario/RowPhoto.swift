/// Which of a recipe's two photos a row of the list shows.
public enum RowPhoto: String, Sendable, CaseIterable, Equatable {
    /// The thumbnail (the API's `photo_url_small`, 150×150): a list of rows.
    case small
    /// The full photo (`photo_url_large`, 700×700): a feed of cards, each photo the screen's width.
    case large
}
