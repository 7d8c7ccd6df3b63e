/// Why the fixture server could not start.
public enum FixtureServerError: Error, Equatable, CustomStringConvertible {
    case unreadableCatalog(path: String)
    case malformedCatalog(path: String, reason: String)
    case invalidConfiguration(String)
    case stoppedBeforeListening
    case addressInUse(String)
    case cannotListen(String, reason: String)

    public var description: String {
        switch self {
        case .unreadableCatalog(let path): "cannot read the catalog \(path)"
        case .malformedCatalog(let path, let reason): "the catalog \(path) is not a recipes.json: \(reason)"
        case .invalidConfiguration(let reason): "invalid fixture server configuration: \(reason)"
        case .stoppedBeforeListening: "the fixture server stopped before it started listening"
        case .addressInUse(let address):
            "cannot listen on \(address): the port is in use (another server?); give another --port, or 0 for any free one"
        case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
        }
    }
}
