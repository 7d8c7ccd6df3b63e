import CacheLabTestSupport
import Foundation
import Testing

/// Bad input, one table: each row is refused with one clear line, before any replay starts, and
/// leaves no output behind.
@Suite("Bad input is refused before any work")
struct BadInputTests {
    /// Fills a scratch folder with a file, a 25-byte oracleGeneral trace, a trace with a NUL byte
    /// in a key, a text trace and a folder holding a recommendation made on other traces (as
    /// results/ holds the committed one); no `missing/`.
    static func prepare(_ root: String) throws {
        let root = URL(fileURLWithPath: root)
        let tuned = root.appendingPathComponent("tuned")
        try FileManager.default.createDirectory(at: tuned, withIntermediateDirectories: true)
        try "not a folder\n".write(to: root.appendingPathComponent("file.txt"), atomically: true, encoding: .utf8)
        try Data(repeating: 7, count: 25).write(to: root.appendingPathComponent("short.oracleGeneral.bin"))
        try "time,key,size\n1,a,100\n2,b\u{0}c,100\n".write(
            to: root.appendingPathComponent("nul.csv"), atomically: true, encoding: .utf8)
        try "time,key,size\n1,a,100\n2,b,100\n3,c,100\n".write(
            to: root.appendingPathComponent("text.csv"), atomically: true, encoding: .utf8)
        try #"{"traces": ["flinger"]}"#.write(
            to: tuned.appendingPathComponent("recommended-defaults.json"), atomically: true, encoding: .utf8)
    }

    /// Arguments (`@` stands for the scratch folder), the line expected on stderr, and the output
    /// path that must not appear (`@`-relative), if any.
    static let rows: [(arguments: [String], message: String, output: String?)] = [
        (
            ["run", "--policy", "lru", "--out", "@/missing/x.csv"],
            "--out @/missing/x.csv: the folder @/missing does not exist", "@/missing/x.csv"
        ),
        (["run", "--policy", "lru", "--out", "@"], "--out @ is a folder, not a file", nil),
        (["run", "--policy", "lru", "--out", "@/file.txt/x.csv"], "@/file.txt is a file, not a folder", nil),
        (
            ["mrc", "--policy", "lru", "--out", "@/missing/m.csv"], "the folder @/missing does not exist",
            "@/missing/m.csv"
        ),
        (
            ["compare", "--scenario", "daily-reader", "--policy", "lru", "--out-dir", "@/file.txt"],
            "--out-dir @/file.txt is a file, not a folder", nil
        ),
        (
            ["tune", "--scenario", "daily-reader", "--out-dir", "@/file.txt"],
            "--out-dir @/file.txt is a file, not a folder", nil
        ),
        (
            ["tune", "--scenario", "daily-reader", "--out-dir", "@/t", "--client-source", "@/missing/R.swift"],
            "--client-source @/missing/R.swift: the folder @/missing does not exist", "@/t"
        ),
        (["merge", "@/missing"], "@/missing does not exist", nil),
        (["run", "--policy", ","], "--policy names nothing", nil),
        (["run", "--policy", "lru,,sieve"], "--policy has an empty item in 'lru,,sieve'", nil),
        (["compare", "--admission", ","], "--admission names nothing", nil),
        (["compare", "--ttl", "none,"], "--ttl has an empty item in 'none,'", nil),
        (["run", "--capacity", "1.5"], "\"1.5\" is not a whole number of bytes (or objects)", nil),
        (
            ["run", "--capacity", "-5"], "--capacity: \"-5\" is not a size like 20MB, 512KiB or 4096 (it is negative)",
            nil
        ),
        (["run", "--capacity=-5"], "(it is negative)", nil),
        (["run", "--ttl", "-5"], "--ttl: \"-5\" is not a duration like 300s, 5m, 12h or 7d (it is negative)", nil),
        (["run", "--ttl", "1.5ms"], "is not a whole number of milliseconds", nil),
        (["run", "--jobs", "-1"], "--jobs must be at least 1", nil),
        (["mrc", "--from", "50%", "--to", "1%"], "--to 1% is smaller than --from 50%", nil),
        (["mrc", "--from", "2MB", "--to", "1MB"], "--to 1MB is smaller than --from 2MB", nil),
        (
            ["run", "--trace", "/dev/null"],
            "/dev/null: cannot read the trace: not a regular file (a pipe or a device)", nil
        ),
        (
            ["run", "--trace", "@/short.oracleGeneral.bin"],
            "short.oracleGeneral.bin: record 2 is truncated: 1 of 24 bytes", nil
        ),
        (
            ["run", "--policy", "lru+bloom"],
            "a filter in front of a policy is its own option, --policy lru --admission bloom", nil
        ),
        (["run", "--policy", "lru,sieeve"], "unknown policy 'sieeve' (did you mean sieve?); choose from lru,", nil),
        (
            ["run", "--memory-policy", "s3fif0", "--memory-capacity", "1MB"],
            "unknown policy 's3fif0' (did you mean s3fifo?)", nil
        ),
        (["run", "--client", "nuk"], "unknown client 'nuk' (did you mean nuke?)", nil),
        (["run", "--admission", "bloom,size:1000"], "run takes one --admission; compare tries several", nil),
        (["tune", "--policy", "belady"], "belady needs the whole trace in advance; a client cannot run it", nil),
        (
            ["run", "--client", "nuke", "--policy", "lru"],
            "--policy is a single tier's; with --client or --memory-policy/--disk-policy each tier names its own", nil
        ),
        (
            ["tune", "--scenario", "daily-reader", "--out-dir", "@/tuned"],
            "@/tuned holds the recommendation made on flinger, not on daily-reader: give another --out-dir, or --force",
            nil
        ),
        (
            ["tune", "--trace", "@/missing.csv", "--out-dir", "@/t"],
            "@/missing.csv: cannot read the trace: No such file or directory", "@/t"
        ),
        (["tune", "--trace", "@/file.txt/x.csv"], "@/file.txt/x.csv: cannot read the trace", nil),
        (
            ["tune", "--kind", "feeed"], "unknown --kind 'feeed'; choose from small-catalog, long-list, endless-feed",
            nil
        ),
        (
            ["tune", "--kind", "endless-feed,long-list", "--scenario", "flinger"],
            "--trace files and --scenario names are tuned as one kind: give one --kind, or none", nil
        ),
        (["trace", "calibration", "--mix", "1,2"], "--mix is three shares of at least 0, not all 0", nil),
        (["trace", "calibration", "--losses-per-hour=-1"], "--losses-per-hour is a rate of at least 0", nil),
        (
            ["trace", "generate", "--scenario", "feed-heavy-month", "--revisit-share", "1"],
            "--revisit-share is a share in [0, 1)", nil
        ),
        (["run", "--policy", "lru,LRU"], "--policy names lru twice", nil),
        (["run", "--capacity", "1MB,1MB"], "--capacity names 1MB twice in '1MB,1MB'", nil),
        (["run", "--trace", "@/nul.csv"], "@/nul.csv:3: the key holds a NUL byte", nil),
        (["run", "--out", "/proc/x.csv"], "--out /proc/x.csv: cannot write into /proc", nil),
        (
            ["compare", "--scenario", "daily-reader", "--policy", "lru", "--out-dir", "/proc/x"],
            "--out-dir /proc/x: cannot create it in /proc", nil
        ),
        (["tune", "--bytes-margin", "-1"], "--bytes-margin is a share of at least 0", nil),
        (["tune", "--memory-margin", "-1"], "--memory-margin", nil),
        (
            ["run", "--trace", "@/text.csv", "--trace-format", "oracle-general"],
            "@/text.csv: record 1: the file begins with text ('time,key,size'), not oracleGeneral's 24-byte binary records",
            nil
        ),
        (
            ["compare", "--policy", "lru,belady"],
            "belady is not ranked: Belady's optimum runs on every trace as the ceiling", nil
        ),
    ]

    @Test(arguments: rows.indices)
    func isRefusedInOneLineBeforeAnyWork(row: Int) throws {
        try TemporaryFolder.with { root in try refuses(row: row, in: root) }
    }

    private func refuses(row: Int, in root: String) throws {
        try Self.prepare(root)
        let (arguments, message, output) = Self.rows[row]
        func resolved(_ text: String) -> String { text.replacingOccurrences(of: "@", with: root) }

        let result = try Binary.run(arguments.map(resolved))

        #expect(result.status != 0, "\(arguments) succeeded")
        let error = result.stderr.split(separator: "\n").first { $0.hasPrefix("Error: ") }.map(String.init) ?? ""
        #expect(error.contains(resolved(message)), "\(arguments): \(result.stderr)")
        // No replay started: none of the commands' status lines, nothing on stdout.
        for line in result.stderr.split(separator: "\n") {
            let started = ["trace ", "comparing ", "tuning ", "read ", "run: ", "mrc: "].contains { line.hasPrefix($0) }
            #expect(!started, "\(arguments) started work: \(line)")
        }
        #expect(result.stdout.isEmpty, "\(arguments) printed \(result.stdout)")
        if let output {
            #expect(!FileManager.default.fileExists(atPath: resolved(output)), "\(arguments) left \(output)")
        }
    }

    @Test func namesIgnoreCaseAndABareSmallCapacityIsCalledBytes() throws {
        // Policy and client names in any case name the same choices
        let upper = try Binary.run(["run", "--policy", "LRU,Sieve", "--format", "csv"])
        let lower = try Binary.run(["run", "--policy", "lru,sieve", "--format", "csv"])
        #expect(upper.status == 0 && upper.stdout == lower.stdout, "\(upper.stderr)")
        let client = try Binary.run(["run", "--client", "Nuke", "--format", "csv"])
        #expect(client.status == 0, "\(client.stderr)")

        // and a capacity that is a bare number below 1,000 runs, but says it is bytes
        let bare = try Binary.run(["run", "--capacity", "20,4096", "--format", "csv"])
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(
            bare.stderr.contains(
                "note: --capacity 20 is 20 bytes; give a size a unit (20MB, 20KiB), or count objects with --size-mode unit"
            ))
        #expect(!bare.stderr.contains("--capacity 4096"))
        let objects = try Binary.run(["run", "--capacity", "20", "--size-mode", "unit", "--format", "csv"])
        #expect(objects.status == 0 && !objects.stderr.contains("note:"), "\(objects.stderr)")
    }

    @Test func anErrorInARunsOptionsShowsTheRunsUsageNotTheRootCommands() throws {
        let result = try Binary.run(["run", "--admission", "bloom,size:1000"])
        #expect(result.stderr.contains("cachelab run --help"), "\(result.stderr)")
    }
}
