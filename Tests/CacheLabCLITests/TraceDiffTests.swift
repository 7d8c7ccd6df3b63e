import Foundation
import Testing

@testable import CacheLab

/// `cachelab trace diff`, run as the built binary: a report, and a check with thresholds.
@Suite("cachelab trace diff")
struct TraceDiffTests {
    static func write(_ rows: [String], to path: String) throws {
        let text = "time,key,size\n" + rows.enumerated().map { "\($0.offset),\($0.element),10" }.joined(separator: "\n")
        try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func theReportNamesWhatDiffersAndTheThresholdsFailAWorseMatch() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let browser = folder.appendingPathComponent("browser.csv").path
        let model = folder.appendingPathComponent("model.csv").path
        let empty = folder.appendingPathComponent("empty.csv").path
        try Self.write(["https://x/a", "https://x/b", "https://x/c", "https://x/d"], to: browser)
        try Self.write(["https://x/a", "https://x/c", "https://x/b", "https://x/e"], to: model)
        try Self.write([], to: empty)

        // A report: three keys in common, one only in each, in nearly the same order
        let report = try Binary.run(["trace", "diff", browser, model])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("keys in both: 3"))
        #expect(
            report.stdout.contains("only in a: 1: https://x/d") && report.stdout.contains("only in b: 1: https://x/e"))
        #expect(report.stdout.contains("set agreement: 0.600"))
        #expect(report.stdout.contains("Spearman's rho of first requests): 0.500"))

        // A check: below a threshold it fails, saying which
        let check = try Binary.run(["trace", "diff", browser, model, "--min-set-agreement", "0.9"])
        #expect(check.status == 1 && check.stderr.contains("set agreement 0.600 < 0.9"))
        // and a server that recorded nothing fails it too, naming the file
        let nothing = try Binary.run(["trace", "diff", empty, model, "--min-set-agreement", "0.5"])
        #expect(nothing.status == 1 && nothing.stderr.contains("empty.csv: the trace holds no request"))
    }
}
