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

    static func result(_ text: String, to path: String?) throws {
        guard let path else {
            writeAll(text, to: STDOUT_FILENO)
            return
        }
        guard let file = fopen(path, "w") else {
            throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        guard fputs(text, file) >= 0 else {
            throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
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

    /// Seconds of monotonic time, for the "replayed in …" status line only (never for results).
    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
