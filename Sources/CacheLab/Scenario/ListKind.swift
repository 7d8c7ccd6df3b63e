/// How a list asks for its rows' photos.
public enum ListKind: String, Sendable, CaseIterable, Equatable {
    /// A lazy stack (SwiftUI's `LazyVStack` with an image view per row): one request per
    /// appearance, when the row comes within the device's prefetch rows of the viewport.
    case lazyStack = "lazy-stack"
    /// A collection view with an image prefetcher (`UICollectionViewDataSourcePrefetching` driving
    /// Nuke's, Kingfisher's or SDWebImage's prefetcher): a prefetch request when a row comes
    /// within the prefetch rows, and the cell's own request when the row shows in the viewport. A
    /// row that shows at once (a launch, a jump) asks once. On a fast fling the cell's request
    /// comes while the prefetch is still downloading: a delayed hit.
    case prefetching
    /// A web page of `<img loading="lazy">` rows (`cachelab serve`'s `/`): the browser loads a
    /// row's photo when the row first comes within its lazy-load distance of the viewport
    /// (`Device.browser`), and keeps it for as long as the page is loaded: scrolling back asks for
    /// nothing; a reload starts over.
    case webPage = "web-page"
}
