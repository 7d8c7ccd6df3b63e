import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionConfiguration {
    /// An ephemeral configuration with no URL cache that ignores locally cached data: what the
    /// client's downloads of the list and of its photos start from.
    ///
    /// On Linux URLCache stores nothing anyway; the settings are those an Apple build needs, so the
    /// recipe list always comes from the network and caching stays the client's own business.
    public static func uncached() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }
}
