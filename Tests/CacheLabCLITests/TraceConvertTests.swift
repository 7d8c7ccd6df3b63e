import CacheLab
import Foundation
import Testing

/// `cachelab trace generate` and `trace convert` stream a trace to a file in any format, plain
/// or zstd, and what they write replays to the same counts as its source.
@Suite("trace generate and convert")
struct TraceConvertTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-convert-\(UUID())").path

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { folder + "/" + name }

    /// The counts of `cachelab run` over `trace`.
    func counts(_ trace: String, _ extra: [String] = []) throws -> Substring {
        let run = try Binary.run(["run", "--trace", trace, "--capacity", "40MB", "--format", "csv"] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return Self.afterName(run.stdout)
    }

    /// A CSV report's first row without its first field, the trace's name (quoted when it has a
    /// comma).
    static func afterName(_ csv: String) -> Substring {
        let row = csv.split(separator: "\n").dropFirst().first ?? ""
        if row.first == "\"", let close = row.dropFirst().firstIndex(of: "\"") {
            return row[row.index(after: close)...]
        }
        return row.drop { $0 != "," }
    }

    @Test("a zipf trace streams to .zst and converts to every format with the same counts")
    func convertsKeepCounts() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let zipf = [
            "--scenario", "zipf", "--requests", "60000", "--objects", "5000", "--sizes", "images", "--seed", "3",
        ]
        let compressed = file("z.oracleGeneral.zst")
        let generated = try Binary.run(["trace", "generate"] + zipf + ["--out", compressed])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stderr.contains("wrote 60,000 requests to \(compressed) (oracle-general)"))
        let builtIn = try Binary.run(["run"] + zipf + ["--capacity", "40MB", "--format", "csv"])
        let expected = Self.afterName(builtIn.stdout)
        #expect(expected.hasPrefix(",lru,bytes,40000000,"))
        #expect(try counts(compressed) == expected)
        for name in ["z.oracleGeneral.bin", "z.csv", "z.csv.zst", "z.libcachesim.csv"] {
            let out = file(name)
            let extra = name == "z.libcachesim.csv" ? ["--format", "csv"] : []
            let converted = try Binary.run(["trace", "convert", compressed, out] + extra)
            #expect(converted.status == 0, "\(name): \(converted.stderr)")
            let columns =
                name == "z.libcachesim.csv" ? ["--trace-format", "csv", "--columns", "time=1,id=2,size=3"] : []
            #expect(try counts(out, columns) == expected, "\(name)")
        }
        // Back to oracleGeneral from cachelab's CSV: next uses come from a pass, and Belady's hits
        // equal those from the generated file's own field.
        let back = file("back.oracleGeneral.bin")
        #expect(try Binary.run(["trace", "convert", file("z.csv.zst"), back]).status == 0)
        let belady = ["--policy", "belady"]
        #expect(try counts(back, belady) == counts(compressed, belady))
        #expect(try counts(compressed, belady + ["--compute-next-uses"]) == counts(compressed, belady))
    }

    @Test("a broken input is one error naming it, and no output is left")
    func brokenInputLeavesNothing() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let broken = file("broken.oracleGeneral.zst")
        try Data("not zstd at all".utf8).write(to: URL(fileURLWithPath: broken))
        let out = file("out.csv")
        let result = try Binary.run(["trace", "convert", broken, out])
        #expect(result.status != 0)
        #expect(result.stderr.contains(broken), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["broken.oracleGeneral.zst"])
        let same = try Binary.run(["trace", "convert", broken, broken])
        #expect(same.status != 0 && same.stderr.contains("must not be the input"))
    }

    @Test("run, mrc and compare stop on a broken .zst with one line naming it, and write nothing")
    func replaysOfABrokenTraceLeaveNothing() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Given a trace cut off two thirds into its compressed bytes
        let good = file("good.oracleGeneral.zst")
        let zipf = ["--scenario", "zipf", "--requests", "200000", "--objects", "20000", "--seed", "5"]
        #expect(try Binary.run(["trace", "generate"] + zipf + ["--out", good]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let broken = file("broken.oracleGeneral.zst")
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: broken))

        let out = file("out.csv")
        let outDir = file("compared")
        let commands: [[String]] = [
            ["run", "--trace", broken, "--policy", "lru,arc", "--capacity", "1MB", "--format", "csv", "--out", out],
            ["run", "--trace", broken, "--policy", "belady", "--capacity", "1MB", "--out", out],
            ["mrc", "--trace", broken, "--policy", "lru,fifo", "--capacity", "1MB,2MB", "--out", out],
            ["compare", "--trace", broken, "--policy", "lru", "--capacity", "1MB", "--out-dir", outDir],
        ]
        for command in commands {
            // When a command replays it
            let result = try Binary.run(command)
            // Then it fails, with one line naming the file and the byte where it broke
            #expect(result.status != 0, "\(command)")
            let lines = result.stderr.split(separator: "\n").filter { $0.contains(broken) }
            #expect(lines.count == 1, "\(command): \(result.stderr)")
            #expect(lines.first?.contains("compressed byte") == true, "\(command): \(result.stderr)")
            // And leaves no output behind
            #expect(!FileManager.default.fileExists(atPath: out), "\(command)")
            #expect(!FileManager.default.fileExists(atPath: outDir), "\(command)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                    == ["broken.oracleGeneral.zst", "good.oracleGeneral.zst"], "\(command)")
        }
    }
}
