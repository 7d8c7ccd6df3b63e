#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Directories the CLI writes into.
enum Directory {
    /// Creates `path` and its missing parents (as `mkdir -p`).
    static func create(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw CLIError("cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
        }
    }
}
