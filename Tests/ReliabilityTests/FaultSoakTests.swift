import CacheLabTestSupport
import FixtureServer
import Foundation
import Testing

/// A long live replay through `cachelab run --mode live` (paced at 100×, gaps cut to 10 ms) with
/// every fault kind injected at 10 %:
/// the process must finish, every answer must be a whole image (the replay checks each one and
/// fails otherwise), every failure must be counted, retries must stay bounded, the disk tier must
/// hold only whole rows afterwards, and the process's memory must stay flat.
@Suite("Network faults over a long live replay")
struct FaultSoakTests {
    /// The committed mixed-population trace (20,132 requests) by default;
    /// `CACHELAB_SOAK_USERS=150` generates one of 150 people (about 100,000 requests).
    static let users = ProcessInfo.processInfo.environment["CACHELAB_SOAK_USERS"].flatMap { Int($0) }

    struct Soak: Sendable {
        var end = ChildProcess.End.exited(-1)
        var standardError = ""
        var csv: [String: String] = [:]
        /// Resident memory sampled every 100 ms, in bytes, and its peak.
        var samples: [Int] = []
        var peak = 0
        var store = StoreCheck()
        /// What went wrong before the store could be checked (a failed generate, an error).
        var runFailures: [String] = []
    }

    @Test func tenPercentFaultsOfEveryKindLeaveNothingPartialAndMemoryFlat() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-soak-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("images.sqlite").path
        var trace = repositoryRoot.appendingPathComponent("traces/mixed-population.csv").path
        var generate: [String]?
        if let users = Self.users {
            trace = folder.appendingPathComponent("soak.csv").path
            generate = ["trace", "generate", "--scenario", "mixed-population", "--users", "\(users)", "--out", trace]
        }
        // Small tiers (about half the requests go to the network) under a long list.
        let arguments = [
            "run", "--mode", "live", "--trace", trace, "--memory-policy", "lru", "--memory-capacity", "100KB",
            "--disk-policy", "lru", "--disk-capacity", "300KB", "--store", store, "--fault-rate", "0.1", "--faults",
            "all", "--timeout", "5", "--format", "csv",
            // Paced, so downloads end when they end: unpaced, each would be handed over at its
            // modelled end, and the run would wait out every slow drip in turn.
            "--speed", "100", "--max-gap", "10ms",
        ]

        let soak = await onOwnThread { [generate] in Self.soak(arguments: arguments, store: store, generate: generate) }

        // Then the run finished, and the replay found every answer whole (it exits 1 otherwise)
        #expect(soak.runFailures.isEmpty, "\(soak.runFailures)")
        #expect(soak.end == .exited(0), "\(soak.standardError)")
        let requests = Int(soak.csv["requests"] ?? "") ?? 0
        let misses = Int(soak.csv["misses"] ?? "") ?? 0
        let failures = Int(soak.csv["failures"] ?? "") ?? 0
        let serverRequests = Int(soak.csv["server_requests"] ?? "") ?? 0
        #expect(requests >= 20_000)
        // faults of every kind were injected
        let injected = soak.standardError.split(separator: "\n").first { $0.contains("the server injected ") } ?? ""
        var faults: [String: Int] = [:]
        for pair in injected.split(separator: ":").last?.split(separator: ",") ?? [] {
            let parts = pair.split(separator: " ")
            if parts.count == 2, let count = Int(parts[0]) { faults[String(parts[1])] = count }
        }
        #expect(Set(faults.keys) == Set(FaultKind.allCases.map(\.rawValue)), "\(injected)")
        // every failure counted and surfaced: each is a miss, and stderr names the first and how
        // many downloads failed (each failing every request waiting for it)
        #expect(failures > 0 && failures < misses)
        let failedLine = soak.standardError.split(separator: "\n").first { $0.contains("requests failed (") } ?? ""
        #expect(failedLine.hasPrefix("  \(failures) requests failed ("), "\(failedLine)")
        let failedDownloads =
            Int(failedLine.split(separator: "(", maxSplits: 1).last?.split(separator: " ").first ?? "") ?? -1
        #expect((1...failures).contains(failedDownloads), "\(failedLine)")
        // retries bounded: beyond one request per download (each miss that did not fail, and each
        // failed download), only URLSession's resend of a GET whose reused connection was reset,
        // at most one per injected reset
        let retries = serverRequests - (misses - failures + failedDownloads)
        #expect((0...faults[FaultKind.reset.rawValue, default: 0]).contains(retries), "\(serverRequests) for \(misses)")
        // and every fault that breaks a response failed its download, but for those resends: slow
        // drips fail nothing
        let breaking = faults.filter { $0.key != FaultKind.drip.rawValue }.values.reduce(0, +)
        #expect(failedDownloads == breaking - retries, "\(injected)")
        // the disk tier holds whole rows only
        #expect(soak.store.failures.isEmpty, "\(soak.store.failures.prefix(5))")
        #expect(soak.store.rowsChecked > 0)
        // memory flat: the second half of the run adds little to what the first quarter reached
        let quarter = soak.samples.prefix(max(1, soak.samples.count / 4)).max() ?? 0
        #expect(soak.samples.count >= 4, "too short to sample")
        #expect(soak.peak < quarter + quarter / 2, "peak \(soak.peak >> 20) MiB, first quarter \(quarter >> 20) MiB")
        print(
            "fault soak: \(requests) requests, \(misses) misses,\(injected.dropFirst(1)), \(failures) failed and surfaced, \(retries) "
                + "resent by URLSession, \(soak.store.rowsChecked) disk rows whole; peak RSS \(soak.peak >> 20) MiB "
                + "(\(quarter >> 20) MiB in the first quarter)")
    }

    /// Runs `cachelab generate...` if given, then `cachelab arguments...`, sampling its memory, then
    /// checks the store.
    static func soak(arguments: [String], store: String, generate: [String]?) -> Soak {
        var soak = Soak()
        do {
            if let generate {
                let generator = try ChildProcess(cachelab: generate)
                guard case .exited(0) = generator.wait() else {
                    soak.runFailures.append("trace generate failed: \(generator.standardError)")
                    return soak
                }
            }
            let child = try ChildProcess(cachelab: arguments)
            // Memory sampled until the child ends (its CSV, written at the end, fits the pipe).
            while child.isRunning, let memory = child.memory() {
                soak.samples.append(memory.resident)
                soak.peak = max(soak.peak, memory.peak)
                Thread.sleep(forTimeInterval: 0.1)
            }
            soak.end = child.wait()
            soak.standardError = child.standardError
            let lines = child.standardOutput.split(separator: "\n")
            if lines.count >= 2 {
                let names = lines[0].split(separator: ",", omittingEmptySubsequences: false)
                let values = lines[1].split(separator: ",", omittingEmptySubsequences: false)
                soak.csv = Dictionary(zip(names.map(String.init), values.map(String.init))) { first, _ in first }
            }
            _ = try soak.store.run(store, after: "the soak")
        } catch {
            soak.runFailures.append("\(error)")
        }
        return soak
    }
}
