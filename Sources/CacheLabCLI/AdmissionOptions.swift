import ArgumentParser
import CacheEngine
import CacheLab

/// `--admission`: a filter in front of the eviction policy (run, compare), as libCacheSim's
/// admissioners.
struct AdmissionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Admission filter in front of the policy (compare tries each of a list; run takes one): none, "
                + AdmissionFilter.names.map(\.0).joined(separator: ", ") + " (cachelab topic admission).",
            valueName: "name[:param]"))
    var admission = "none"

    func validate() throws { _ = try filters() }

    /// The filters asked for, in order; nil for `none`.
    func filters() throws -> [AdmissionFilter?] {
        try ListOptions.items(admission, option: "--admission").map { text -> AdmissionFilter? in
            if text == "none" { return nil }
            do { return try AdmissionFilter(parsing: text) } catch { throw ValidationError("--\(error)") }
        }
    }

    /// The one filter a run takes.
    func filter() throws -> AdmissionFilter? {
        let all = try filters()
        guard all.count == 1 else {
            throw ValidationError("run takes one --admission; compare tries several")
        }
        return all[0]
    }
}
