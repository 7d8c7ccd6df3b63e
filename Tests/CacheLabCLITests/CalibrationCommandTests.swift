import Testing

@testable import CacheLab

@Suite("cachelab trace calibration")
struct CalibrationCommandTests {
    @Test func printsTheArticlesTableAndPassesWhenEveryFigureHolds() throws {
        // Given the command, as the DocC article Workloads quotes it
        let output = try Binary.run(["trace", "calibration", "--format", "markdown"])

        // Then it prints the population's rows, as measured in process, and exits 0
        #expect(output.status == 0, "\(output.stderr)")
        let rows = FeedCalibration.facebook.rows(FeedCalibration.facebook.measure())
        #expect(output.stdout == CalibrationReport.markdown(rows))
    }

    @Test func aFigureOutsideItsToleranceFailsTheCommand() throws {
        // Given a browser that never loses what the feed put there: no cache is ever young
        let output = try Binary.run(["trace", "calibration", "--losses-per-hour", "0"])

        // Then the fitted age figure fails, is marked, and the command exits 1
        #expect(output.status == 1)
        #expect(output.stdout.contains(" NO"))
    }
}
