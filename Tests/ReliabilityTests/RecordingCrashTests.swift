import CacheLab
import CacheLabTestSupport
import ClientModel
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A live replay recording itself (`cachelab run --mode live --record FOLDER`) killed with SIGKILL
/// at random points: each recording must import, and hold the first requests and events of the
/// whole run, exactly, up to its last complete record.
@Suite("Crash safety of a recording")
struct RecordingCrashTests {
    /// 20 kills by default; `CACHELAB_RECORDING_KILLS=100 swift test --filter RecordingCrash` for more.
    static let kills = ProcessInfo.processInfo.environment["CACHELAB_RECORDING_KILLS"].flatMap { Int($0) } ?? 20

    struct Report: Sendable {
        var kills = 0
        var completed = 0
        /// Kills after which the recording held requests (else the kill came before the first write).
        var killsWithRecords = 0
        var recordsChecked = 0
        var partialLinesDropped = 0
        var failures: [String] = []
    }

    @Test func aRecordingKilledAtRandomPointsImportsUpToItsLastCompleteRecord() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-recording-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try ChildProcess.cachelab()

        let report = await onOwnThread { Self.killRepeatedly(root: root, kills: Self.kills) }

        #expect(report.failures.isEmpty, "\(report.failures.prefix(5).joined(separator: "\n"))")
        #expect(report.kills >= Self.kills)
        // (A quarter at least: on a machine under load the child starts writing later, and in one
        // CI run exactly half the kills came after the first write.)
        #expect(report.killsWithRecords >= report.kills / 4, "too few kills came while the recording was written")
        print(
            "recording crash safety: \(report.kills) SIGKILLs (\(report.killsWithRecords) with records written), "
                + "\(report.completed) runs finished first, \(report.recordsChecked) records checked, "
                + "\(report.partialLinesDropped) partial lines dropped, \(report.failures.count) failures")
    }

    static func arguments(recordingInto folder: URL) -> [String] {
        [
            "run", "--mode", "live", "--trace", repositoryRoot.appendingPathComponent("traces/feed-10k.csv").path,
            "--client", "nuke", "--record", folder.path, "--format", "csv",
        ]
    }

    /// One whole run recorded as the reference; then runs killed after a seeded random share of its
    /// time, each recording into a new folder with the reference's salt (so its keys are the
    /// reference's), each checked against the reference's beginning.
    static func killRepeatedly(root: URL, kills: Int) -> Report {
        var report = Report()
        do {
            let reference = root.appendingPathComponent("whole")
            let started = ContinuousClock.now
            let whole = try ChildProcess(cachelab: arguments(recordingInto: reference))
            guard case .exited(0) = whole.wait() else {
                report.failures.append("the whole run failed: \(whole.standardError)")
                return report
            }
            var runTime = seconds(since: started)
            let expected = try Recording.read(path: reference.path).trace
            let salt = try Data(contentsOf: reference.appendingPathComponent("salt"))

            var random = SplitMix64(seed: 8)
            var attempt = 0
            while report.kills < kills, report.kills + report.completed < kills * 3 {
                attempt += 1
                let folder = root.appendingPathComponent("killed-\(attempt)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try salt.write(to: folder.appendingPathComponent("salt"))
                let begun = ContinuousClock.now
                let child = try ChildProcess(cachelab: arguments(recordingInto: folder))
                Thread.sleep(forTimeInterval: runTime * random.nextUnit())
                child.send(SIGKILL)
                switch child.wait() {
                case .signalled(SIGKILL): report.kills += 1
                case .exited(0):
                    report.completed += 1
                    // The reference ran slower than this (a busier moment): kill within this one's time.
                    runTime = min(runTime, seconds(since: begun))
                case let end: report.failures.append("run \(attempt) \(end): \(child.standardError)")
                }
                check(folder, against: expected, attempt: attempt, into: &report)
            }
        } catch {
            report.failures.append("\(error)")
        }
        return report
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// The folder's recording imports (or holds no record yet), and is the reference's beginning.
    static func check(_ folder: URL, against expected: Trace, attempt: Int, into report: inout Report) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard names.contains(where: { $0.hasSuffix(".csv") }) else {
            return  // killed before its first buffer reached a file
        }
        let recording: Recording
        do {
            recording = try Recording.read(path: folder.path)
        } catch .empty {
            return  // killed before its first buffer reached the file
        } catch {
            report.failures.append("run \(attempt): the recording does not import: \(error)")
            return
        }
        let trace = recording.trace
        let count = trace.count
        report.killsWithRecords += 1
        report.recordsChecked += count + trace.events.count
        report.partialLinesDropped += recording.droppedPartialLines
        guard count <= expected.count else {
            report.failures.append("run \(attempt): \(count) requests, more than the whole run's \(expected.count)")
            return
        }
        let keys = trace.keys.map { trace.keyNames![Int($0)] }
        let expectedNames = expected.keys.prefix(count).map { expected.keyNames![Int($0)] }
        if trace.times != Array(expected.times.prefix(count)) || trace.sizes != Array(expected.sizes.prefix(count))
            || keys != expectedNames
        {
            report.failures.append("run \(attempt): its \(count) requests are not the whole run's first \(count)")
        }
        if trace.events != Array(expected.events.prefix(trace.events.count))
            || trace.events.contains(where: { $0.position > count })
        {
            report.failures.append("run \(attempt): its events are not the whole run's first ones")
        }
    }
}
