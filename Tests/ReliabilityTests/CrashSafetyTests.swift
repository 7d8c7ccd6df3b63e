import CacheLab
import CacheLabTestSupport
import ClientModel
import Foundation
import RecipeClient
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A live replay, with its SQLite disk tier, killed with SIGKILL at random points again and again:
/// after every kill the store must open, every row must be whole and match its checksum, the byte
/// total must be the rows', and the next run must carry on from what the last one left.
@Suite("Crash safety of the disk tier")
struct CrashSafetyTests {
    /// 50 kills by default; `CACHELAB_KILLS=500 swift test --filter CrashSafety` for a longer run.
    static let kills = ProcessInfo.processInfo.environment["CACHELAB_KILLS"].flatMap { Int($0) } ?? 50

    /// What the runs did and what the checks found.
    struct Report: Sendable {
        var kills = 0
        /// Runs that finished before their kill came.
        var completed = 0
        /// Kills after which the store held other rows than at the check before: the run was
        /// writing when it died, or had written.
        var killsAfterChanges = 0
        var store = StoreCheck()
        /// Runs that failed on their own (not killed, not finished cleanly).
        var runFailures: [String] = []
        var failures: [String] { runFailures + store.failures }
    }

    @Test func aLiveReplayKilledAtRandomPointsLeavesAStoreThatOpensIsWholeAndResumes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-crash-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("images.sqlite").path
        // A small disk under a long list: evictions delete rows in the same transactions that add
        // them, so a kill finds writes of every kind under way.
        let arguments = [
            "run", "--mode", "live", "--trace", repositoryRoot.appendingPathComponent("traces/feed-10k.csv").path,
            "--memory-policy", "lru", "--memory-capacity", "200KB", "--disk-policy", "lru", "--disk-capacity", "1MB",
            "--store", store, "--format", "csv",
        ]
        _ = try ChildProcess.cachelab()

        let report = await onOwnThread { Self.killRepeatedly(arguments: arguments, store: store, kills: Self.kills) }

        #expect(report.failures.isEmpty, "\(report.failures.prefix(5).joined(separator: "\n"))")
        #expect(report.kills >= Self.kills)
        #expect(report.killsAfterChanges > 0, "no kill came while the store was changing")
        print(
            "crash safety: \(report.kills) SIGKILLs (\(report.killsAfterChanges) after the store had changed), "
                + "\(report.completed) runs finished first, \(report.store.rowsChecked) rows checked, "
                + "\(report.failures.count) failures")
    }

    /// Times one clean run, then starts the replay again and again on the same store, kills it
    /// after a seeded random share of that time, and checks the store after each. Kills land in the
    /// first 60 % of a run: every run replays the trace from its start on what the last left, so
    /// the store changes all through, and few runs end before their kill.
    static func killRepeatedly(arguments: [String], store: String, kills: Int) -> Report {
        var report = Report()
        do {
            // The first run fills the store; the second, timed, finds it filled as the later ones do.
            var started = ContinuousClock.now
            for run in ["first", "second"] {
                started = ContinuousClock.now
                let clean = try ChildProcess(cachelab: arguments)
                guard case .exited(0) = clean.wait() else {
                    report.runFailures.append("the \(run) run failed: \(clean.standardError)")
                    return report
                }
            }
            let elapsed = (ContinuousClock.now - started).components
            let runTime = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            var random = SplitMix64(seed: 50)
            var last = try report.store.run(store, after: "the clean runs")
            while report.kills < kills, report.failures.isEmpty, report.kills + report.completed < kills * 3 {
                let child = try ChildProcess(cachelab: arguments)
                Thread.sleep(forTimeInterval: 0.6 * runTime * random.nextUnit())
                child.send(SIGKILL)
                let end = child.wait()
                switch end {
                case .signalled(SIGKILL): report.kills += 1
                case .exited(0): report.completed += 1
                default: report.runFailures.append("run \(report.kills + 1) \(end): \(child.standardError)")
                }
                let now = try report.store.run(store, after: "kill \(report.kills)")
                if now != last, end == .signalled(SIGKILL) { report.killsAfterChanges += 1 }
                last = now
            }
            // And the replay runs to its end on what the kills left.
            let final = try ChildProcess(cachelab: arguments)
            let end = final.wait()
            if end != .exited(0) {
                report.runFailures.append("the run after the kills \(end): \(final.standardError)")
            }
            _ = try report.store.run(store, after: "the last run")
        } catch {
            report.runFailures.append("\(error)")
        }
        return report
    }
}
