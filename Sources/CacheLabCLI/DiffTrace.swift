import ArgumentParser
import CacheLab

/// `cachelab trace diff A B`: what two traces of one list asked for, and in what order.
struct DiffTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract:
            "Compare two traces of the same list: the keys each asked for, and the order of their first requests.",
        discussion: """
            Made for a browser's recording against the list model's trace of the same gestures \
            (scripts/browser-trace): keys are compared by name (URLs), each key placed by its first \
            request. Prints the requests and keys of each, the keys only one asked for (the first \
            few), the set agreement (shared keys over all keys) and the order agreement (Spearman's \
            rank correlation of the shared keys' first requests, 1 = the same order) with the mean \
            shift in ranks.

            --min-set-agreement and --min-rank-correlation make it a check: exit 1 below either.

            Example: cachelab trace diff .build/browser/browser.csv .build/browser/model.csv --min-rank-correlation 0.95
            """
    )

    @Argument(help: ArgumentHelp("The first trace (e.g. the browser's).", valueName: "a"))
    var first: String

    @Argument(help: ArgumentHelp("The second trace (e.g. the model's).", valueName: "b"))
    var second: String

    @Option(help: ArgumentHelp("Fail below this share of keys in common (0...1).", valueName: "share"))
    var minSetAgreement: Double?

    @Option(help: ArgumentHelp("Fail below this rank correlation (-1...1).", valueName: "rho"))
    var minRankCorrelation: Double?

    func validate() throws {
        if let minSetAgreement, !(0...1).contains(minSetAgreement) {
            throw ValidationError("--min-set-agreement is a share in 0...1, e.g. 0.9")
        }
        if let minRankCorrelation, !(-1...1).contains(minRankCorrelation) {
            throw ValidationError("--min-rank-correlation is in -1...1, e.g. 0.95")
        }
    }

    func run() throws {
        let traces: [Trace]
        do {
            traces = try [first, second].map { path throws(TraceError) in try TraceReader.read(path: path) }
        } catch {
            throw CLIError(error)
        }
        let comparison = TraceComparison(traces[0], traces[1])
        print(Self.table(comparison, names: (first, second)), terminator: "")
        var failures: [String] = []
        if let minSetAgreement, comparison.setAgreement < minSetAgreement {
            failures.append(
                "set agreement \(Report.decimal(comparison.setAgreement, places: 3)) < \(minSetAgreement)")
        }
        if let minRankCorrelation, comparison.rankCorrelation < minRankCorrelation {
            failures.append(
                "rank correlation \(Report.decimal(comparison.rankCorrelation, places: 3)) < \(minRankCorrelation)")
        }
        if !failures.isEmpty { throw CLIError("the traces differ: \(failures.joined(separator: "; "))") }
    }

    static func table(_ comparison: TraceComparison, names: (String, String)) -> String {
        func few(_ keys: [String]) -> String {
            keys.isEmpty
                ? "none" : "\(keys.count): " + keys.prefix(3).joined(separator: ", ") + (keys.count > 3 ? ", …" : "")
        }
        return Report.render([
            ["", "a", "b"],
            ["trace", names.0, names.1],
            ["requests", Report.grouped(comparison.requests.first), Report.grouped(comparison.requests.second)],
            ["keys", Report.grouped(comparison.keys.first), Report.grouped(comparison.keys.second)],
        ])
            + "keys in both: \(Report.grouped(comparison.common))\n"
            + "only in a: \(few(comparison.onlyFirst))\n"
            + "only in b: \(few(comparison.onlySecond))\n"
            + "set agreement: \(Report.decimal(comparison.setAgreement, places: 3))\n"
            + "order agreement (Spearman's rho of first requests): \(Report.decimal(comparison.rankCorrelation, places: 3)), mean shift \(Report.decimal(comparison.meanRankShift, places: 2)) ranks\n"
    }
}
