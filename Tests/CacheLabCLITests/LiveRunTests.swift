import Foundation
import Testing

@testable import CacheLab
@testable import CacheLabCLI

/// `cachelab run --mode live`: its options, and the binary replaying through the real pipeline.
@Suite("cachelab run --mode live")
struct LiveRunTests {
    @Test func liveOptionsParse() throws {
        let command = try CacheLabCommand.parseAsRoot([
            "run", "--mode", "live", "--server", "http://127.0.0.1:8080", "--speed", "10", "--concurrency", "8",
            "--store", "/tmp/images.sqlite", "--fault-rate", "0.1", "--faults", "5xx,reset", "--server-latency", "5",
            "--timeout", "2",
        ])
        let run = try #require(command as? RunCommand)
        let options = try run.live.options()
        #expect(run.mode == .live)
        #expect(run.live.server == "http://127.0.0.1:8080" && options.speed == 10 && options.concurrency == 8)
        #expect(options.diskPath == "/tmp/images.sqlite" && options.timeout == 2)
        let server = try run.live.replay.serverConfiguration()
        #expect(server.latency == .milliseconds(5))
        #expect(server.faults == .spread(0.1, over: [.serverError, .reset]))
    }

    @Test(arguments: [
        ["run", "--speed", "10"], ["run", "--server", "http://127.0.0.1:1"], ["run", "--mode", "live", "--speed", "0"],
        ["run", "--mode", "live", "--fault-rate", "2"], ["run", "--mode", "live", "--faults", "gremlins"],
        ["run", "--mode", "live", "--size-mode", "unit"], ["run", "--mode", "live", "--server", "127.0.0.1:8080"],
        ["run", "--mode", "live", "--concurrency", "0"], ["run", "--mode", "replay"],
        ["run", "--mode", "live", "--max-gap", "5s"], ["run", "--mode", "live", "--speed", "1", "--max-gap", "soon"],
        ["run", "--max-gap", "5s"],
    ])
    func badLiveOptionsAreRejectedBeforeRunning(arguments: [String]) {
        #expect(throws: (any Error).self) { try CacheLabCommand.parseAsRoot(arguments) }
    }

    @Test func theBinaryReplaysLiveAndAgreesWithTheSimulator() throws {
        let output = try Binary.run([
            "run", "--mode", "live", "--memory-policy", "lru", "--memory-capacity", "400KB", "--disk-policy", "lfu",
            "--disk-capacity", "1MB", "--format", "csv",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let header = lines[0].split(separator: ",").map(String.init)
        let row = Self.fields(try #require(lines.last))
        func value(_ column: ReportColumn) -> String { row[header.firstIndex(of: column.rawValue)!] }
        #expect(value(.mode) == "live")
        #expect(value(.requests) == "501")
        #expect(value(.failures) == "0")
        #expect(Int(value(.bytesDownloaded))! > 0)
        #expect(value(.bytesDownloaded) == value(.serverBytes))
        #expect(value(.misses) == value(.serverRequests))
        #expect(output.stderr.contains("agreeing with the simulator's for 501 of 501"))
    }

    @Test func aStoreKeepsTheDiskTierForTheNextRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("images.sqlite").path
        let arguments = [
            "run", "--mode", "live", "--policy", "lru", "--capacity", "100MB", "--store", store, "--format", "csv",
        ]
        let first = try Binary.run(arguments)
        let second = try Binary.run(arguments)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        func misses(_ output: Binary.Output) throws -> Int {
            let lines = output.stdout.split(separator: "\n").map { Self.fields(String($0)) }
            return Int(lines[1][lines[0].firstIndex(of: ReportColumn.misses.rawValue)!])!
        }
        // Everything fits in 100 MB: the second launch finds every photo on disk.
        #expect(try misses(first) == 70)
        #expect(try misses(second) == 0)
    }

    /// The fields of one CSV line (RFC 4180 quoting: the trace name may hold commas).
    static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var previous: Character?
        for character in line {
            if character == "\"" {
                if quoted, previous == "\"" { field.append("\"") }
                quoted.toggle()
            } else if character == ",", !quoted {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
            previous = character
        }
        return fields + [field]
    }
}
