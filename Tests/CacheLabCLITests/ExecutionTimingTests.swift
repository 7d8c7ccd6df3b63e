import Testing

@testable import CacheLab
@testable import CacheLabCLI

/// The one status line of timing a command prints after its replays.
@Suite("The timing line")
struct ExecutionTimingTests {
    static let twoSeconds = PlanTiming(wall: 2, reading: 0.5, replaying: 1.5, nextUses: nil)

    @Test func oneCellsRateIsItsRequestsPerSecond() {
        let line = Execution.timing(
            requests: 1_000_000, replays: 1_000_000, timing: Self.twoSeconds, cells: 1, workers: 1, traces: 1)
        #expect(line.hasPrefix("replayed 1,000,000 requests through 1 cell in 2.00 s (0.50 M requests/s):"))
        #expect(line.hasSuffix("reading 500.0 ms, replaying 1.50 s"))
    }

    @Test func manyCellsRateCountsEveryCellsReplays() {
        // A trace of a million requests through 8 cells is 8 million replays in 2 s, not 1 million.
        let line = Execution.timing(
            requests: 1_000_000, replays: 8_000_000, timing: Self.twoSeconds, cells: 8, workers: 2, traces: 1)
        #expect(line.hasPrefix("replayed 1,000,000 requests through 8 cells in 2.00 s"))
        #expect(line.contains("(4.00 M requests/s over all cells):"))
        #expect(line.hasSuffix("replaying 1.50 s (the busiest of 2 cores)"))
    }
}
