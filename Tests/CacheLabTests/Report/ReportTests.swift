import Testing

@testable import CacheLab

@Suite("Reports")
struct ReportTests {
    @Test func theCSVHeaderHoldsTheDocumentedColumnsInOrder() {
        let required = [
            "policy", "capacity_bytes", "requests", "hits", "misses", "hit_ratio", "bytes_requested",
            "bytes_hit", "byte_hit_ratio", "bytes_saved", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms",
        ]
        let header = Report.csvHeader.split(separator: ",").map(String.init)
        for column in required { #expect(header.contains(column)) }
        let positions = required.compactMap { header.firstIndex(of: $0) }
        #expect(positions == positions.sorted())
    }

    @Test func aRowHasOneValuePerColumnAndMatchesTheResult() {
        let result = Replay.simulate(ReplayTests.smallTrace(), RunConfiguration(policy: .lru, capacity: 40))
        let csv = Report.csv([result, result])
        let lines = csv.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let row = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(row.count == header.count)
        let value = Dictionary(uniqueKeysWithValues: zip(header, row))
        #expect(value["policy"] == "lru")
        #expect(value["capacity_bytes"] == "40")
        #expect(value["hits"] == "3")
        #expect(value["hit_ratio"] == "0.500000")
        #expect(value["bytes_saved"] == "30")
        #expect(value["ttl_s"] == "")
    }

    @Test(arguments: [
        (0.5, 3, "0.500"), (1.23456, 2, "1.23"), (-0.004, 2, "0.00"), (-2.5, 1, "-2.5"), (1234.0, 0, "1234"),
        (0.0999, 3, "0.100"),
    ])
    func decimalsAreFixedAndLocaleFree(value: Double, places: Int, text: String) {
        #expect(Report.decimal(value, places: places) == text)
    }

    @Test func theTableNamesEveryMeasure() {
        let result = Replay.simulate(ReplayTests.smallTrace(), RunConfiguration(policy: .lru, capacity: 40))
        let table = Report.table([result])
        for label in ["hit ratio", "byte hit ratio", "bytes saved", "latency p95", "50.00%"] {
            #expect(table.contains(label))
        }
    }
}
