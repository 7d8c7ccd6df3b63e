/// Renders `FeedCalibration`'s rows: a table for a terminal, and the Markdown table the DocC
/// article Workloads shows.
public enum CalibrationReport {
    public static func table(_ rows: [FeedCalibration.Row]) -> String {
        var lines = [["figure", "source", "published", "ours", "tolerance", "role", "holds"]]
        for row in rows {
            lines.append([
                row.figure, row.source, value(row.published, row), value(row.ours, row), tolerance(row),
                row.role.rawValue, row.tolerance == nil ? "-" : row.holds ? "yes" : "NO",
            ])
        }
        return Report.render(lines)
    }

    public static func markdown(_ rows: [FeedCalibration.Row]) -> String {
        var out = "| figure | source | published | ours | tolerance | role |\n|---|---|---:|---:|---:|---|\n"
        for row in rows {
            out +=
                "| \(row.figure) | \(row.source) | \(value(row.published, row)) | \(value(row.ours, row)) | \(tolerance(row)) | \(row.role.rawValue) |\n"
        }
        return out
    }

    static func value(_ value: Double, _ row: FeedCalibration.Row) -> String {
        row.isShare ? Report.decimal(value * 100, places: 1) + " %" : Report.decimal(value, places: value < 10 ? 2 : 1)
    }

    static func tolerance(_ row: FeedCalibration.Row) -> String {
        guard let tolerance = row.tolerance else { return "-" }
        return "± " + (row.isShare ? Report.decimal(tolerance * 100, places: 0) + " points" : value(tolerance, row))
    }
}
