import CacheLab
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the CLI writes: results to stdout (or a file), everything else to stderr, so that
/// `--format csv` output can be piped.
enum Output {
    /// A line the user needs: a warning, a verdict, a file written.
    static func status(_ line: String) {
        writeAll(line + "\n", to: STDERR_FILENO)
    }

    /// A line about the work itself — the trace's shape, the replay's timing, what is under way —
    /// shown on a terminal or with `--verbose`; a pipe or a log stays quiet.
    static func detail(_ line: String) {
        if ProgressBar.onTerminal || verbose.load(ordering: .relaxed) { status(line) }
    }

    /// Whether the command was given `--verbose` (`JobOptions` sets it as it is parsed).
    static let verbose = Atomic<Bool>(false)

    /// Writes `text` to stderr as it is (a progress bar redrawing its line).
    static func raw(_ text: String) {
        writeAll(text, to: STDERR_FILENO)
    }

    /// Writes `text` to stdout, or to the file at `path`: written whole to a temporary file
    /// beside it and renamed over it (`AtomicFile`), so a run that fails or is killed never leaves
    /// a partial result.
    static func result(_ text: String, to path: String?) throws {
        guard let path else {
            writeAll(text, to: STDOUT_FILENO)
            return
        }
        do { try AtomicFile.write(text, to: path) } catch { throw CLIError(error) }
    }

    /// The command line reports and a sweep's manifest quote: as typed, without the options that
    /// change no result (where the work runs and where it is written), so that every task of a
    /// sweep and a run on one machine quote the same line.
    static func commandLine(_ arguments: [String] = CommandLine.arguments) -> String {
        let dropped: Set<String> = ["--shard", "--shard-count", "--out-dir", "--out", "--jobs"]
        var kept = ["cachelab"]
        var skipNext = false
        for argument in arguments.dropFirst() {
            if skipNext {
                skipNext = false
                continue
            }
            let name = String(argument.prefix { $0 != "=" })
            if argument == "--no-progress" { continue }
            if dropped.contains(name) {
                skipNext = !argument.contains("=")
                continue
            }
            kept.append(argument)
        }
        return kept.joined(separator: " ")
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
