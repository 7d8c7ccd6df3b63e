import CacheLabLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on stderr, drawn only when stderr is a terminal: CI logs and files
/// get no bar (the final status lines say what was done).
final class ProgressBar: Sendable {
    private let title: String
    private let enabled: Bool
    private let started = Output.monotonicSeconds()
    /// The last time the bar was drawn, to draw at most ten times a second.
    private let lastDrawn = Locked<Double>(0)

    init(_ title: String, enabled: Bool = ProgressBar.onTerminal) {
        self.title = title
        self.enabled = enabled
    }

    /// Whether stderr is a terminal.
    static var onTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// `finished` of `total` are done.
    @Sendable func update(_ finished: Int, of total: Int) {
        guard enabled, total > 1 else { return }
        let now = Output.monotonicSeconds()
        let draw = lastDrawn.withLock { last in
            guard finished == total || now - last >= 0.1 else { return false }
            last = now
            return true
        }
        guard draw else { return }
        let width = 30
        let filled = total == 0 ? width : finished * width / total
        let elapsed = now - started
        let remaining =
            finished == 0 ? "" : " ~\(Int((elapsed / Double(finished) * Double(total - finished)).rounded())) s left"
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        Output.raw("\r\(title) [\(bar)] \(finished)/\(total)\(finished == total ? "" : remaining)\u{1B}[K")
        if finished == total { Output.raw("\n") }
    }
}
