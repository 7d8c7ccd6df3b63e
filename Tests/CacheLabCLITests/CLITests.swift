import CacheEngine
import Foundation
import Testing

@testable import CacheLab
@testable import CacheLabCLI

/// The CLI parsed in-process, and the built binary run on small inputs.
@Suite("cachelab command line")
struct CLITests {
    @Test func runParsesEveryDocumentedOption() throws {
        let command = try CacheLabCommand.parseAsRoot([
            "run", "--policy", "lru,lfu", "--capacity", "20MB,10%", "--size-mode", "unit", "--ttl", "300s",
            "--ttl-mode", "sliding", "--trace", "x.csv", "--trace-format", "csv", "--columns", "time=2,id=5,size=4",
            "--network", "lte", "--seed", "9", "--format", "csv", "--out", "/tmp/x.csv", "--trim-ratio", "0.5",
            "--tier", "memory",
        ])
        let run = try #require(command as? RunCommand)
        #expect(try run.policies() == [.lru, .lfu])
        #expect(try run.runRequest().capacities == .list([.absolute(20_000_000), .percentOfWorkingSet(10)]))
        #expect(try run.ttlMilliseconds() == 300_000)
        #expect(run.sizeMode == .unit && run.ttlMode == .sliding && run.network.network == .lte && run.tier == .memory)
        #expect(
            run.reading.file.traceFormat == .csv && run.format == .csv && run.reading.generator.seed == 9
                && run.trimRatio == 0.5)
    }

    @Test func allMeansEveryRegisteredPolicy() throws {
        let run = try #require(try CacheLabCommand.parseAsRoot(["run", "--policy", "all"]) as? RunCommand)
        #expect(try run.policies() == PolicyKind.allCases)
    }

    @Test(arguments: [
        ["run", "--policy", "mru"], ["run", "--capacity", "lots"], ["run", "--ttl", "soon"],
        ["run", "--trim-ratio", "1.5"], ["run", "--columns", "id=1"], ["run", "--size-mode", "pages"],
    ])
    func badOptionsAreRejectedBeforeRunning(arguments: [String]) {
        #expect(throws: (any Error).self) { try CacheLabCommand.parseAsRoot(arguments) }
    }

    @Test func theBinaryPrintsOneCSVHeaderAndOneRowPerRun() throws {
        let output = try Binary.run(["run", "--policy", "lru,fifo", "--format", "csv"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == Substring(Report.csvHeader))
        #expect(lines[1].contains(",lru,") && lines[2].contains(",fifo,"))
        // Nothing on stderr in a pipe: the trace's shape and the timing only with --verbose
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let verbose = try Binary.run(["run", "--policy", "lru,fifo", "--format", "csv", "--verbose"])
        #expect(verbose.stdout == output.stdout)
        #expect(verbose.stderr.contains("trace daily-reader") && verbose.stderr.contains("run: replayed"))
    }

    @Test func traceCommandsSayWhatTheyWroteAndTimeNothingInAPipe() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quiet-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let generated = try Binary.run(["trace", "generate", "--scenario", "daily-reader", "--out", path])
        #expect(generated.status == 0)
        #expect(generated.stderr.hasPrefix("generate: wrote ") && generated.stderr.hasSuffix("(cachelab)\n"))
        #expect(!generated.stderr.contains("requests/s"), "\(generated.stderr)")
        let stats = try Binary.run(["trace", "stats", path])
        #expect(stats.status == 0 && stats.stdout.contains("requests"))
        #expect(stats.stderr.isEmpty, "\(stats.stderr)")
    }

    @Test func theBinaryPrintsATableByDefault() throws {
        let output = try Binary.run(["run", "--policy", "lru"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("hit ratio"))
        #expect(output.stdout.contains("latency p95"))
    }

    @Test(arguments: [
        ("bad-number.csv", "time,key,size\n0,a,10\n1,b,1x\n", "bad-number.csv:3:"),
        ("missing-column.csv", "time,key,size\n0,a,10\n1,b\n", "missing-column.csv:3:"),
        ("empty.csv", "", "empty.csv"),
        // A record of one-byte fields among zeros (time 1, id 2, size 3), then 6 bytes of the next.
        (
            "truncated.oracleGeneral.bin",
            "\u{1}\u{0}\u{0}\u{0}\u{2}" + String(repeating: "\u{0}", count: 7) + "\u{3}"
                + String(repeating: "\u{0}", count: 11) + String(repeating: "x", count: 6),
            "record 2 is truncated"
        ),
        ("text.oracleGeneral.bin", String(repeating: "x", count: 30), "record 1: the file begins with text"),
    ])
    func aMalformedTraceGivesOneLineNamingTheFileAndLine(name: String, contents: String, expected: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-cli-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        let output = try Binary.run(["run", "--trace", path])
        #expect(output.status != 0)
        #expect(output.stdout.isEmpty)
        let errorLines = output.stderr.split(separator: "\n").filter { $0.contains("Error") || $0.contains("error") }
        #expect(errorLines.count == 1)
        #expect(output.stderr.contains(expected))
    }

    /// The trace source counts the streams it opens (`TraceSource.passes`); `--verbose` says it.
    @Test(arguments: [("1KB", "once"), ("10%", "2 times"), ("1KB,10%", "2 times")])
    func aRunReadsItsTraceOnceUnlessAShareOfTheWorkingSetIsAsked(capacity: String, reads: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-cli-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("reads.csv").path
        try Data("time,key,size\n0,a,100\n1,b,200\n2,a,100\n3,c,300\n".utf8).write(to: URL(fileURLWithPath: path))
        let output = try Binary.run(
            ["run", "--trace", path, "--policy", "lru,fifo", "--capacity", capacity, "--format", "csv", "--verbose"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("run: read reads.csv \(reads)\n"), "\(output.stderr)")
    }

    @Test func aShareOfTheWorkingSetThatRoundsToNothingIsAnError() throws {
        let output = try Binary.run(["run", "--size-mode", "unit", "--capacity", "1%"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("is 0 objects"))
    }

    @Test func generatedTracesRoundTripThroughTheBinary() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let generated = try Binary.run(["trace", "generate", "--seed", "5", "--out", path])
        #expect(generated.status == 0)
        let fromFile = try Binary.run(["run", "--trace", path, "--capacity", "512KiB", "--format", "csv"])
        let builtIn = try Binary.run(["run", "--seed", "5", "--format", "csv"])
        // Same requests, same counts; only the trace name differs.
        func counts(_ csv: String) -> [Substring] {
            csv.split(separator: "\n")[1].split(separator: ",").dropFirst().map { $0 }
        }
        #expect(counts(fromFile.stdout) == counts(builtIn.stdout))
    }
}

/// Runs the `cachelab` binary built beside the test bundle.
enum Binary {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var url: URL {
        // The test bundle sits in the build products folder next to the executable.
        let bundle = Bundle.main.bundleURL
        for directory in [bundle, bundle.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("cachelab")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "cachelab")
    }

    /// Runs `cachelab arguments`, in `directory` if given; `environment` adds to (or, with nil
    /// values, removes from) the test's own environment.
    static func run(
        _ arguments: [String], environment: [String: String?] = [:], in directory: URL? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
