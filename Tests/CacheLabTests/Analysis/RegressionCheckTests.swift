import CacheEngine
import Foundation
import Testing

@testable import CacheLab

/// LRU with its recency update broken: a hit no longer moves the entry, so it evicts in
/// insertion order. The regression the gate must catch.
struct LRUWithoutRecency: EvictionPolicy {
    static let summary = "LRU whose hits change nothing (a deliberate regression)"
    private let links = SlotLinks()
    private var order = SlotList()

    init(configuration: CacheConfiguration) {}
    mutating func grow(to slotCount: Int) { links.grow(to: slotCount) }
    mutating func inserted(_ slot: Int32, key: UInt64, cost: Int) { order.append(slot, in: links) }
    mutating func accessed(_ slot: Int32) {}  // the bug: recency is never updated
    mutating func removed(_ slot: Int32, key: UInt64) { order.remove(slot, in: links) }
    mutating func evict() -> Int32? { order.removeHead(in: links) }
    mutating func removeAll() { order.removeAll() }
    func checkedSlots() -> [Int32] { order.slots(in: links) }
}

@Suite("The regression gate")
struct RegressionCheckTests {
    static let traces = ["daily-reader", "flinger", "weekly-returner"].map { name in
        var trace = ScrollScenario.named(name)!.makeTrace()
        trace.name = name
        return trace
    }
    static let configurations = [200_000, 500_000, 1_000_000].flatMap { capacity in
        [PolicyKind.lru, .sieve].map { RunConfiguration(policy: $0, capacity: capacity) }
    }

    static func baseline() throws -> [RegressionCheck.Entry] {
        let runs = traces.flatMap { trace in configurations.map { Replay.simulate(trace, $0) } }
        return try RegressionCheck.entries(csv: Report.csv(runs), file: "baseline.csv")
    }

    static func rerun(_ entries: [RegressionCheck.Entry], lru: (Trace, RunConfiguration) -> RunResult) -> [RunResult] {
        entries.map { entry in
            let trace = traces.first { $0.name == entry.trace }!
            return entry.configuration.policy == .lru
                ? lru(trace, entry.configuration) : Replay.simulate(trace, entry.configuration)
        }
    }

    @Test func theBaselineReadsBackAsTheRunsThatMadeIt() throws {
        let entries = try Self.baseline()
        #expect(entries.count == 18)
        #expect(entries[0].line == 2 && entries[0].trace == "daily-reader")
        #expect(
            entries.map(\.configuration.capacity)
                == Array(repeating: Self.configurations.map(\.capacity), count: 3).flatMap { $0 })
        #expect(entries[1].configuration.policy == .sieve && entries[1].configuration.trimRatio == 1)
    }

    @Test func unchangedCodePassesWithNothingMoved() throws {
        let entries = try Self.baseline()
        let current = Self.rerun(entries) { Replay.simulate($0, $1) }
        #expect(RegressionCheck.findings(entries, current, tolerance: .init()).isEmpty)
    }

    @Test func breakingLRUsRecencyUpdateFailsTheGate() throws {
        // Given a baseline made with the real LRU
        let entries = try Self.baseline()

        // When LRU's recency update is broken in a copy and the baseline is replayed with it
        let current = Self.rerun(entries) { Replay.simulate($0, $1, order: LRUWithoutRecency.self) }
        let findings = RegressionCheck.findings(entries, current, tolerance: .init())

        // Then the gate names LRU's hit ratio as worse, and nothing of SIEVE's
        let worse = findings.filter(\.isWorse)
        #expect(!worse.isEmpty)
        #expect(worse.allSatisfy { $0.entry.configuration.policy == .lru })
        #expect(worse.contains { $0.measure == .hitRatio && $0.after < $0.before - 0.001 })
        let table = RegressionCheck.table(findings)
        #expect(table.contains("WORSE") && table.contains("hit ratio") && table.contains(" points"))
    }

    @Test func aChangedTraceIsReportedAsSuch() throws {
        var entries = try Self.baseline()
        entries[0].requests += 1
        let current = Self.rerun(entries) { Replay.simulate($0, $1) }
        let findings = RegressionCheck.findings(entries, current, tolerance: .init())
        #expect(findings.count == 1 && findings[0].measure == .requests && findings[0].isWorse)
    }

    @Test(arguments: [
        ("", 1, "the file is empty"),
        ("trace,policy\n", 1, "no size_mode column"),
    ])
    func aBadBaselineNamesItsFileAndLine(text: String, line: Int, message: String) {
        #expect(throws: BaselineError.self) { try RegressionCheck.entries(csv: text, file: "b.csv") }
        do {
            _ = try RegressionCheck.entries(csv: text, file: "b.csv")
        } catch {
            #expect(error.line == line && error.description.hasPrefix("b.csv:\(line): \(message)"))
        }
    }

    @Test func aClientRowOrALiveRowIsRefusedWithItsLine() throws {
        let run = Replay.simulate(Self.traces[0], RunConfiguration(policy: .lru, capacity: 100_000))
        var csv = Report.csv([run, run])
        csv = csv.replacingFirst(",lru,", with: ",nuke,", afterLine: 3)
        #expect {
            try RegressionCheck.entries(csv: csv, file: "b.csv")
        } throws: { error in
            (error as? BaselineError)?.line == 3
                && (error as? BaselineError)?.message.contains("not a single-tier policy") == true
        }
    }

    @Test func quotedFieldsSplitAsRFC4180() {
        #expect(RegressionCheck.splitCSV("a,\"b,c\",\"say \"\"hi\"\"\",") == ["a", "b,c", "say \"hi\"", ""])
    }
}

extension String {
    /// This text with the first `target` on line `line` (1-based) or later replaced.
    fileprivate func replacingFirst(_ target: String, with replacement: String, afterLine line: Int) -> String {
        var lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in (line - 1)..<lines.count {
            if let range = lines[index].range(of: target) {
                lines[index].replaceSubrange(range, with: replacement)
                break
            }
        }
        return lines.joined(separator: "\n")
    }
}
