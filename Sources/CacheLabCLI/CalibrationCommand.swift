import ArgumentParser
import CacheLab

/// `cachelab trace calibration`: the photo-feed population measured as Facebook's studies
/// measured theirs, beside the published figures it was set or fitted from, or must reproduce.
struct CalibrationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibration",
        abstract:
            "Measure the photo-feed population as Facebook's studies measured theirs, beside the published figures.",
        discussion: """
            Generates the feed population (\(ScrollScenario.feedPopulation.users) people of the \
            feed-light, feed-regular and feed-heavy personas, two weeks), replays each person's trace \
            through a browser's cache, and prints each published figure beside the population's: the \
            ones a parameter was set from, the ones parameters were fitted to, the one it must \
            reproduce, and the one it does not (the DocC article Workloads says why). Exits 1 when a \
            figure with a tolerance is outside it.

            The options below change the population or the browser, to refit or to see how far a \
            figure moves.

            Examples:
              cachelab trace calibration
              cachelab trace calibration --format markdown     # the article's table
              cachelab trace calibration --losses-per-hour 0.1 --seed 2
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, markdown
    }

    @Option(help: "table (for reading) or markdown (the article's table).")
    var format = Format.table

    @Option(help: "Seed of the population.")
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "How often, per hour, the browser's cache loses everything the feed put there (default: the fitted \(FeedCalibration.fittedLossesPerHour)).",
            valueName: "rate"))
    var lossesPerHour: Double?

    @Option(help: ArgumentHelp("The browser's disk cache (default 80MiB, Chromium's).", valueName: "size"))
    var browserCache: String?

    @Option(
        help: ArgumentHelp(
            "Shares of the feed-light, feed-regular and feed-heavy readers (default: the fitted ones).",
            valueName: "light,regular,heavy"))
    var mix: String?

    @Option(help: "People in the population.")
    var users: Int?

    func validate() throws {
        if let lossesPerHour, !(lossesPerHour >= 0 && lossesPerHour.isFinite) {
            throw ValidationError("--losses-per-hour is a rate of at least 0, e.g. 0.05")
        }
        if let users, users < 1 { throw ValidationError("--users must be at least 1") }
        _ = try shares()
        _ = try browserBytes()
    }

    func shares() throws -> [Double]? {
        guard let mix else { return nil }
        let shares = mix.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard shares.count == 3, shares.allSatisfy({ ($0 ?? -1) >= 0 }), shares.reduce(0, { $0 + ($1 ?? 0) }) > 0
        else {
            throw ValidationError("--mix is three shares of at least 0, not all 0, e.g. 0.46,0.19,0.35")
        }
        return shares.map { $0! }
    }

    func browserBytes() throws -> Int? {
        try browserCache.map { try ListOptions.size($0, option: "--browser-cache") }
    }

    func run() throws {
        var calibration = FeedCalibration.facebook
        calibration.scenario.seed = seed
        if let lossesPerHour { calibration.lossesPerHour = lossesPerHour }
        if let bytes = try browserBytes() { calibration.browserCache = bytes }
        if let users { calibration.scenario.users = users }
        if let shares = try shares() {
            calibration.scenario.people = zip([Persona.feedLight, .feedRegular, .feedHeavy], shares).map {
                ScrollScenario.Share($0, $1)
            }
        }
        let rows = calibration.rows(calibration.measure())
        try Output.result(
            format == .markdown ? CalibrationReport.markdown(rows) : CalibrationReport.table(rows), to: nil)
        if rows.contains(where: { $0.tolerance != nil && !$0.holds }) {
            throw ExitCode(1)
        }
    }
}
