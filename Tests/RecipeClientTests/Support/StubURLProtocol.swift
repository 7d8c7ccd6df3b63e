import CacheLabLocking
import Foundation
import Synchronization

@testable import RecipeClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a `StubServer` answers to one request.
enum StubReply: Sendable {
    case http(status: Int, body: Data)
    /// The request fails without a response, as URLSession reports a transport error.
    case failure(URLError.Code)

    static func ok(_ body: Data) -> StubReply { .http(status: 200, body: body) }
    static func status(_ status: Int) -> StubReply { .http(status: status, body: Data("error".utf8)) }
}

/// A fake origin on a host of its own, so tests running in parallel never share replies.
///
/// Each path has a script of replies used in order, the last one repeating; a path with no
/// script gets 404. Requests are counted per path.
final class StubServer: Sendable {
    let host: String
    private let paths = Locked<[String: (script: [StubReply], requests: Int)]>([:])
    private static let nextID = Atomic<Int>(0)

    init() {
        host = "stub\(Self.nextID.add(1, ordering: .relaxed).newValue).cachelab.test"
        StubURLProtocol.register(self)
    }

    func url(_ path: String = "/recipes.json") -> URL {
        URL(string: "https://\(host)\(path)")!
    }

    func script(_ replies: StubReply..., at path: String = "/recipes.json") {
        precondition(!replies.isEmpty, "A script needs at least one reply")
        paths.withLock { $0[path] = (replies, 0) }
    }

    func requestCount(_ path: String = "/recipes.json") -> Int {
        paths.withLock { $0[path]?.requests ?? 0 }
    }

    /// A session on the service's own configuration, with requests routed to the stubs.
    func makeSession() -> URLSession {
        let configuration = URLSessionRecipeService.makeConfiguration()
        configuration.protocolClasses = [StubURLProtocol.self]
        return URLSession(configuration: configuration)
    }

    /// A service fetching `path` from this server through real URLSession code.
    func makeService(_ path: String = "/recipes.json") -> URLSessionRecipeService {
        URLSessionRecipeService(url: url(path), session: makeSession())
    }

    fileprivate func reply(to path: String) -> StubReply {
        paths.withLock { paths in
            guard var entry = paths[path] else {
                return .status(404)
            }
            let reply = entry.script[min(entry.requests, entry.script.count - 1)]
            entry.requests += 1
            paths[path] = entry
            return reply
        }
    }
}

/// Answers requests for `StubServer` hosts from their scripts, inside URLSession's own loading
/// machinery (registered through `URLSessionConfiguration.protocolClasses`).
final class StubURLProtocol: URLProtocol {
    private static let servers = Locked<[String: StubServer]>([:])

    static func register(_ server: StubServer) {
        servers.withLock { $0[server.host] = server }
    }

    private static func server(for request: URLRequest) -> StubServer? {
        guard let host = request.url?.host else {
            return nil
        }
        return servers.withLock { $0[host] }
    }

    override class func canInit(with request: URLRequest) -> Bool {
        server(for: request) != nil
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override func startLoading() {
        guard let url = request.url, let server = Self.server(for: request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        switch server.reply(to: url.path) {
        case .http(let status, let body):
            let response = HTTPURLResponse(
                url: url,
                statusCode: status,
                httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json", "Content-Length": "\(body.count)"]
            )!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !body.isEmpty {
                client?.urlProtocol(self, didLoad: body)
            }
            client?.urlProtocolDidFinishLoading(self)
        case .failure(let code):
            client?.urlProtocol(self, didFailWithError: URLError(code))
        }
    }

    override func stopLoading() {}
}
