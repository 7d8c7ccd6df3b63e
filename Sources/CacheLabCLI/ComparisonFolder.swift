import CacheLab
import Foundation

/// The folder `compare` and `merge` write a comparison into: where it goes when no `--out-dir` is
/// given, and the check, made before any replay, that it holds no other traces' comparison.
enum ComparisonFolder {
    /// The committed comparison of the built-in scroll scenarios.
    static let scenarios = "results/compare"

    /// The folder to write into: `outDir` if given; else, for the built-in scenarios,
    /// `results/compare`, and for trace files `compare/NAME` (NAME: the traces' names joined by
    /// `+`), which the repository ignores, so a comparison of one's own traces never replaces the
    /// committed one.
    static func resolve(_ outDir: String?, traces: [String], fromFiles: Bool) -> String {
        if let outDir { return outDir }
        guard fromFiles else { return scenarios }
        // A file's name without its extensions: mine.oracleGeneral.zst → mine.
        let stems = traces.map { trace in trace.split(separator: ".").first.map(String.init) ?? trace }
        let name = stems.joined(separator: "+").map { $0 == "/" ? "_" : $0 }
        return "compare/" + String(name.prefix(120))
    }

    /// Whether `traces` are the built-in scroll scenarios (a merged sweep names its traces only).
    static func areScenarios(_ traces: [String]) -> Bool {
        let names = Set(ScrollScenario.presets.map(\.name))
        return traces.allSatisfy(names.contains)
    }

    /// Fails, before any work, if `path` exists and is not a directory, or holds the comparison
    /// (`compare.csv`) of other traces and `force` is not set.
    static func check(_ path: String, traces: [String], force: Bool) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw CLIError("--out-dir \(path) is a file, not a directory") }
        guard !force, let theirs = tracesCompared(in: path) else { return }
        guard Set(theirs) == Set(traces) else {
            throw CLIError(
                "\(path) holds the comparison of \(list(theirs)), not of \(list(traces)): give another --out-dir, or --force to replace it"
            )
        }
    }

    /// The traces a comparison in `path` ranked (its `compare.csv`'s first column), or nil if
    /// it holds none.
    static func tracesCompared(in path: String) -> [String]? {
        guard let text = try? String(contentsOfFile: path + "/compare.csv", encoding: .utf8) else { return nil }
        var seen: [String] = []
        for line in text.split(separator: "\n").dropFirst() {
            let trace = line.hasPrefix("\"") ? quotedField(line) : String(line.prefix { $0 != "," })
            if !seen.contains(trace) { seen.append(trace) }
        }
        return seen
    }

    /// Removes the charts an earlier comparison left in `path` that this one does not rewrite, so
    /// the folder shows one comparison.
    static func removeStaleCharts(in path: String, keeping written: Set<String>) {
        let suffixes = ["-miss-ratio.svg", "-byte-hit-ratio.svg", "-latency.svg", "-live-latency.svg"]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names where !written.contains(name) && suffixes.contains(where: name.hasSuffix) {
            try? FileManager.default.removeItem(atPath: path + "/" + name)
        }
    }

    private static func quotedField(_ line: Substring) -> String {
        var field = ""
        var index = line.index(after: line.startIndex)
        while index < line.endIndex {
            let character = line[index]
            index = line.index(after: index)
            if character == "\"" {
                guard index < line.endIndex, line[index] == "\"" else { break }
                index = line.index(after: index)
            }
            field.append(character)
        }
        return field
    }

    private static func list(_ traces: [String]) -> String {
        traces.count <= 3
            ? traces.joined(separator: ", ")
            : traces.prefix(3).joined(separator: ", ") + " and \(traces.count - 3) more"
    }
}
