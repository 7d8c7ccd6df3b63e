import CacheLab
import CacheLabLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on stderr, drawn only when stderr is a terminal and only once the
/// work has taken a second: CI logs, pipes and quick runs get no bar (the final status lines say
/// what was done).
final class ProgressBar: Sendable {
    private let title: String
    private let enabled: Bool
    private let started = Output.monotonicSeconds()
    /// The last time the bar was drawn (0 before), to draw at most ten times a second.
    private let lastDrawn = Locked<Double>(0)
    /// Where the current pass over a trace began, for its rate and time left: a new phase (the
    /// replay after the next-use pass) or a new trace (requests going back) starts another.
    private let pass = Locked<Pass?>(nil)

    private struct Pass: Sendable {
        var phase: PlanProgress.Phase
        var started: Double
        var requests: Int
    }

    init(_ title: String, enabled: Bool = ProgressBar.onTerminal) {
        self.title = title
        self.enabled = enabled
    }

    /// Whether stderr is a terminal.
    static var onTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// `finished` of `total` items (runs, cells, traces) are done.
    @Sendable func update(_ finished: Int, of total: Int) {
        guard total > 1 else { return }
        draw(fraction: Double(finished) / Double(total), detail: "\(finished)/\(total)", done: finished == total)
    }

    /// A plan's reading has got this far: bytes of the file (or requests) done of the total, and
    /// requests read, with their rate and the time left.
    @Sendable func reading(_ progress: PlanProgress) {
        let now = Output.monotonicSeconds()
        let passStarted = pass.withLock { pass in
            if pass == nil || pass!.phase != progress.phase || progress.requests < pass!.requests {
                pass = Pass(phase: progress.phase, started: now, requests: progress.requests)
            }
            pass!.requests = progress.requests
            return pass!.started
        }
        let elapsed = now - passStarted
        let rate = elapsed > 0 ? Double(progress.requests) / elapsed : 0
        var detail = "\(Report.grouped(progress.requests)) requests, \(Report.decimal(rate / 1e6, places: 1)) M/s"
        switch progress.phase {
        case .workingSet: detail = "working set: " + detail
        case .nextUses: detail = "next uses: " + detail
        case .replay: break
        }
        guard let total = progress.total, total > 0 else {
            draw(fraction: nil, detail: detail, done: false, since: passStarted)
            return
        }
        let unit = progress.requests == progress.done ? "" : " of \(Report.bytes(total)) read"
        let fraction = min(Double(progress.done) / Double(total), 1)
        draw(
            fraction: fraction, detail: "\(Report.percent(fraction))\(unit), \(detail)", done: false,
            since: passStarted)
    }

    /// Clears the bar's line, if one was drawn.
    func finish() {
        guard enabled else { return }
        let drawn = lastDrawn.withLock { last in
            defer { last = 0 }
            return last > 0
        }
        if drawn { Output.raw("\r\u{1B}[K") }
    }

    /// - Parameter since: when the work the fraction measures began, for the time left.
    private func draw(fraction: Double?, detail: String, done: Bool, since: Double? = nil) {
        guard enabled else { return }
        let now = Output.monotonicSeconds()
        guard now - started >= 1 || lastDrawn.withLock({ $0 > 0 }) else { return }
        let elapsed = now - (since ?? started)
        let draw = lastDrawn.withLock { last in
            guard done || now - last >= 0.1 else { return false }
            last = now
            return true
        }
        guard draw else { return }
        let width = 30
        var bar = ""
        var left = ""
        if let fraction {
            let filled = Int(fraction * Double(width))
            bar = " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
            if fraction > 0, !done {
                left = ", ~\(Int((elapsed / fraction * (1 - fraction)).rounded())) s left"
            }
        }
        Output.raw("\r\(title)\(bar) \(detail)\(left)\u{1B}[K")
    }
}
