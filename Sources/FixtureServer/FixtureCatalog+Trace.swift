import CacheLab

/// Every object of a trace as a photo the fixture server can serve, so that the trace can be
/// replayed live against it.
public struct TraceObjects: Sendable {
    /// A catalog with no recipes whose photos are the trace's objects.
    public let catalog: FixtureCatalog
    // The server path of each key, by key.
    private let paths: [UInt64: String]

    /// Maps every key of `trace` to a path under `/photos/`: a URL key `…/photos/<folder>/<file>`
    /// (a scroll trace's) keeps its folder and file; any other key becomes
    /// `/photos/k<hex of the key id>/object.jpg`. The photo's size is the key's size in the trace.
    ///
    /// - Throws: `FixtureServerError.invalidConfiguration` naming the first key whose requests
    ///   give two sizes (a server has one body per path), or that is smaller than a photo can be.
    public init(trace: Trace) throws(FixtureServerError) {
        var photos: [UInt64: FixtureCatalog.Photo] = [:]
        for position in 0..<trace.count {
            let key = trace.keys[position]
            let size = trace.sizes[position]
            if let known = photos[key] {
                guard known.size == size else {
                    throw .invalidConfiguration(
                        "\(trace.name): request \(position + 1) asks for \(Self.name(of: key, in: trace)) at \(size) "
                            + "bytes, an earlier one at \(known.size); a live replay needs one size per object")
                }
                continue
            }
            guard size >= PhotoBody.minimumSize else {
                throw .invalidConfiguration(
                    "\(trace.name): request \(position + 1) asks for \(Self.name(of: key, in: trace)) at \(size) "
                        + "bytes; the fixture server's photos are at least \(PhotoBody.minimumSize) bytes")
            }
            let (folder, file) = Self.location(of: key, in: trace)
            photos[key] = FixtureCatalog.Photo(folder: folder, file: file, size: size, isLarge: file == "large.jpg")
        }
        catalog = FixtureCatalog(recipes: [], extraPhotos: Array(photos.values))
        var paths = photos.mapValues(\.path)
        // A favourite may name a photo no request asks for (pinned before it was ever shown): it
        // has a path, and nothing to serve.
        for key in trace.events.compactMap(\.key) where paths[key] == nil {
            let (folder, file) = Self.location(of: key, in: trace)
            paths[key] = "/photos/\(folder)/\(file)"
        }
        self.paths = paths
    }

    /// The server path of `key` (`/photos/<folder>/<file>`).
    public func path(of key: UInt64) -> String { paths[key]! }

    /// Distinct objects.
    public var count: Int { paths.count }

    private static func name(of key: UInt64, in trace: Trace) -> String {
        trace.keyNames.map { $0[Int(key)] } ?? "object \(key)"
    }

    private static func location(of key: UInt64, in trace: Trace) -> (folder: String, file: String) {
        if let names = trace.keyNames {
            let parts = names[Int(key)].split(separator: "/", omittingEmptySubsequences: false)
            if parts.count >= 3, parts[parts.count - 3] == "photos", Self.isSafe(parts[parts.count - 2]),
                Self.isSafe(parts[parts.count - 1])
            {
                return (String(parts[parts.count - 2]), String(parts[parts.count - 1]))
            }
        }
        return ("k\(String(key, radix: 16))", "object.jpg")
    }

    // A path segment the router serves as is: no dots-only names, no escapes.
    private static func isSafe(_ segment: Substring) -> Bool {
        !segment.isEmpty && !segment.hasPrefix(".")
            && segment.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
    }
}
