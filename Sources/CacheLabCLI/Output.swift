#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the CLI writes: results to stdout (or a file), everything else to stderr, so that
/// `--format csv` output can be piped.
enum Output {
    static func status(_ line: String) {
        writeAll(line + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` to stderr as it is (a progress bar redrawing its line).
    static func raw(_ text: String) {
        writeAll(text, to: STDERR_FILENO)
    }

    /// Writes `text` to stdout, or to the file at `path`: written whole to a temporary file
    /// beside it and renamed over it, so a run that fails or is killed never leaves a partial
    /// result (at worst a hidden `.NAME.tmp-PID` file).
    static func result(_ text: String, to path: String?) throws {
        guard let path else {
            writeAll(text, to: STDOUT_FILENO)
            return
        }
        let temporary = temporaryPath(for: path)
        guard let file = fopen(temporary, "w") else {
            throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let written = fputs(text, file) >= 0
        let flushed = fflush(file) == 0 && fsync(fileno(file)) == 0
        fclose(file)
        guard written, flushed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIError("cannot write \(path): \(reason)")
        }
    }

    /// `dir/.name.tmp-PID` for `dir/name`: hidden, in the same folder (so the rename is atomic).
    static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(folder).\(name).tmp-\(getpid())"
    }

    // Writes through the file descriptor: the C `stdout`/`stderr` globals are shared mutable
    // state that Swift 6 will not touch without a lock.
    private static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Seconds of monotonic time, for timing and progress lines only (never for results).
    @Sendable static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
