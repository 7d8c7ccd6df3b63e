import Hummingbird

/// 404 for anything outside the catalog, counted; path traversal never reaches a route.
struct CatalogOnlyMiddleware: RouterMiddleware {
    typealias Context = FixtureRequestContext
    let state: FixtureState

    /// Whether `path` holds `..`, a backslash, or an encoded dot, slash or backslash (`%2e`,
    /// `%2f`, `%5c`, any case): one pass over its bytes, as every request goes through it.
    static func mayTraverse(_ path: String) -> Bool {
        var twoBack: UInt8 = 0
        var oneBack: UInt8 = 0
        for byte in path.utf8 {
            let lower = byte | 0x20
            if byte == UInt8(ascii: "\\") || (byte == UInt8(ascii: ".") && oneBack == UInt8(ascii: ".")) {
                return true
            }
            if twoBack == UInt8(ascii: "%"),
                (oneBack == UInt8(ascii: "2") && (lower == UInt8(ascii: "e") || lower == UInt8(ascii: "f")))
                    || (oneBack == UInt8(ascii: "5") && lower == UInt8(ascii: "c"))
            {
                return true
            }
            twoBack = oneBack
            oneBack = byte
        }
        return false
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        if Self.mayTraverse(request.uri.path) {
            state.notFound()
            throw HTTPError(.notFound)
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            state.notFound()
            throw error
        }
    }
}
