import ArgumentParser
import CacheLab

/// How results are printed: a table for people, or CSV for scripts.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table
    case csv

    /// Writes runs' results in this format to stdout, or whole to `out` (never a partial file).
    func write(_ results: [RunResult], to out: String?) throws {
        try Output.result(self == .csv ? Report.csv(results) : Report.table(results), to: out)
        if let out { Output.status("wrote \(out)") }
    }

    /// Writes a miss-ratio curve's points in this format to stdout, or whole to `out`.
    func write(_ points: [CurvePoint], to out: String?) throws {
        let policies = Set(points.map(\.policy)).count
        Output.detail(
            "\(Report.counted(points.count, "point")) (\(Report.counted(policies, "policy", plural: "policies")))")
        try Output.result(self == .csv ? Report.curveCSV(points) : Report.curveTable(points), to: out)
        if let out { Output.status("wrote \(out)") }
    }
}
