/// Why a live replay could not run.
public enum LiveReplayError: Error, CustomStringConvertible {
    case serverUnreachable(url: String, reason: String)
    case unsupported(String)

    public var description: String {
        switch self {
        case .serverUnreachable(let url, let reason):
            "cannot read \(url)/stats (\(reason)); is `cachelab serve --trace FILE` running there?"
        case .unsupported(let reason): reason
        }
    }
}
