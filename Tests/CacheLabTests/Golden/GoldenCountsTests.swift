// libCacheSim's miss counts on the shared traces (`golden-counts.tsv`, beside this file, written by
// `scripts/conformance --reference-only --golden <file>`), replayed through cachelab's policies.
import CacheEngine
import CacheLabLocking
import CacheLabTestSupport
import Foundation
import Testing

@testable import CacheLab

/// A trace of the reference table and how to read it.
struct GoldenTrace: Sendable, Hashable {
    let name: String
    let format: TraceFormat
    let columns: String?
}

/// One configuration of the reference table and libCacheSim's counts for it.
struct GoldenRow: Sendable, CustomTestStringConvertible {
    let trace: GoldenTrace
    let sizeMode: SizeMode
    /// The capacity as a share of the working set, in percent.
    let percent: Int
    /// The capacity in bytes, or in objects in unit mode.
    let capacity: Int
    let policy: PolicyKind
    /// Requests libCacheSim counted (requests of size 0 are dropped).
    let requests: Int
    /// libCacheSim's miss count.
    let misses: Int

    var testDescription: String {
        "\(trace.name) \(sizeMode.rawValue) \(percent)% (\(capacity)) \(policy.rawValue)"
    }
}

/// `golden-counts.tsv`: `#` comment lines, a header, then one row per line, tab-separated: trace,
/// format, CSV columns (empty for none), size mode, percent, capacity, policy, requests, misses.
enum GoldenTable {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("golden-counts.tsv")

    /// The table's rows, or what is wrong with it, naming the line.
    static let rows: Result<[GoldenRow], GoldenTableError> = Result { () throws(GoldenTableError) in
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw GoldenTableError(line: 0, reason: "cannot read \(file.path)")
        }
        var rows: [GoldenRow] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !line.hasPrefix("#") && !line.hasPrefix("trace\t") {
            rows.append(try row(line, number: index + 1))
        }
        return rows
    }

    private static func row(_ line: Substring, number: Int) throws(GoldenTableError) -> GoldenRow {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 9, let format = TraceFormat(rawValue: fields[1]),
            let sizeMode = SizeMode(rawValue: fields[3]), let percent = Int(fields[4]),
            let capacity = Int(fields[5]), let policy = PolicyKind(rawValue: fields[6]),
            let requests = Int(fields[7]), let misses = Int(fields[8])
        else {
            throw GoldenTableError(line: number, reason: "expected 9 valid fields, read \"\(line)\"")
        }
        let trace = GoldenTrace(name: fields[0], format: format, columns: fields[2].isEmpty ? nil : fields[2])
        return GoldenRow(
            trace: trace, sizeMode: sizeMode, percent: percent, capacity: capacity, policy: policy,
            requests: requests, misses: misses)
    }
}

struct GoldenTableError: Error, CustomStringConvertible {
    let line: Int
    let reason: String
    var description: String { "golden-counts.tsv:\(line): \(reason)" }
}

@Suite struct GoldenTableTests {
    /// The table reads whole: a row it could not read would silently drop out of the tests below.
    @Test func everyRowOfTheTableReads() throws {
        let rows = try GoldenTable.rows.get()
        #expect(rows.count > 100)
        #expect(Set(rows.map(\.policy)).isSuperset(of: GoldenCountsTests.checkedByConformance))
    }
}

@Suite(.enabled(if: SharedFixtures.tracesAvailable, "needs ../shared/traces"))
struct GoldenCountsTests {
    static let rows = (try? GoldenTable.rows.get()) ?? []

    /// Each trace of the table, read once and shared by every row (or why it could not be read).
    static let traces: [GoldenTrace: Result<Trace, TraceError>] = {
        var loaded: [GoldenTrace: Result<Trace, TraceError>] = [:]
        for trace in rows.map(\.trace) where loaded[trace] == nil {
            guard let path = SharedFixtures.trace(trace.name) else {
                loaded[trace] = .failure(.unreadable(file: trace.name, reason: "missing from ../shared/traces"))
                continue
            }
            loaded[trace] = Result { () throws(TraceError) -> Trace in
                let columns = try trace.columns.map { spec throws(TraceError) in try CSVColumns(parsing: spec) }
                return try TraceReader.read(path: path, format: trace.format, columns: columns)
            }
        }
        return loaded
    }()

    static func simulate(_ row: GoldenRow) throws -> RunResult {
        let trace = try #require(traces[row.trace]).get()
        // Only the counts are compared: no latency model.
        return Replay.simulate(
            trace, RunConfiguration(policy: row.policy, capacity: row.capacity, sizeMode: row.sizeMode),
            latency: false)
    }

    /// The eleven policies `.ci/run`'s conformance check also runs against libCacheSim itself, on
    /// these traces and more: CI skips `originalPolicyMissCountMatchesLibCacheSim` for that reason.
    static let checkedByConformance: Set<PolicyKind> = [
        .lru, .fifo, .lfu, .clock, .sieve, .twoq, .s3fifo, .arc, .wtinylfu, .gdsf, .belady,
    ]

    @Test(arguments: rows.filter { checkedByConformance.contains($0.policy) })
    func originalPolicyMissCountMatchesLibCacheSim(_ row: GoldenRow) throws { try check(row) }

    @Test(arguments: rows.filter { !checkedByConformance.contains($0.policy) })
    func addedPolicyMissCountMatchesLibCacheSim(_ row: GoldenRow) throws { try check(row) }

    private func check(_ row: GoldenRow) throws {
        let result = try Self.simulate(row)
        #expect(result.requests == row.requests, "requests counted")
        #expect(result.misses == row.misses, "misses: libCacheSim \(row.misses), cachelab \(result.misses)")
        if result.misses != row.misses || result.requests != row.requests {
            FailureTable.printOnce()
        }
    }
}

/// On the first failing row, prints every row's expected and actual counts as a Markdown table.
private enum FailureTable {
    private static let printed = Locked(false)

    static func printOnce() {
        let first = printed.withLock { printed in
            defer { printed = true }
            return !printed
        }
        guard first else {
            return
        }
        var lines = [
            "GoldenCounts: libCacheSim 0.3.5 (expected) vs cachelab (actual) miss counts",
            "| trace | mode | capacity | policy | expected | actual | diff |",
            "|---|---|---:|---|---:|---:|---:|",
        ]
        for row in GoldenCountsTests.rows {
            let actual = (try? GoldenCountsTests.simulate(row)).map(\.misses)
            let diff = actual.map { $0 == row.misses ? "OK" : String(format: "%+d", $0 - row.misses) } ?? "unreadable"
            lines.append(
                "| \(row.trace.name) | \(row.sizeMode.rawValue) | \(row.percent)% = \(row.capacity) | "
                    + "\(row.policy.rawValue) | \(row.misses) | \(actual.map(String.init) ?? "-") | \(diff) |")
        }
        print(lines.joined(separator: "\n"))
    }
}
