import Testing

@testable import CacheLab

@Suite("Sizes and durations as people write them")
struct QuantityTests {
    @Test(arguments: [
        ("4096", 4_096), ("20MB", 20_000_000), ("512KiB", 524_288), ("1.5GB", 1_500_000_000),
        ("2GiB", 2_147_483_648), ("12k", 12_000), (" 7 mb ", 7_000_000), ("100B", 100),
    ])
    func parsesCapacities(text: String, bytes: Int) throws {
        #expect(try CapacitySpec(parsing: text) == .absolute(bytes))
    }

    @Test func percentagesResolveAgainstTheWorkingSetRoundingDown() throws {
        var trace = Trace(name: "t")
        trace.append(time: 0, key: 1, size: 999)
        trace.append(time: 0, key: 2, size: 1_000)
        trace.append(time: 0, key: 1, size: 5_000)  // the first-seen size counts
        let statistics = TraceStatistics(trace)
        #expect(statistics.workingSetBytes == 1_999)
        #expect(statistics.uniqueObjects == 2)
        let tenPercent = try CapacitySpec(parsing: "10%")
        #expect(tenPercent.resolved(for: statistics, mode: .bytes) == 199)
        #expect(tenPercent.resolved(for: statistics, mode: .unit) == 0)
    }

    @Test(arguments: ["", "MB", "-5", "12 parsecs", "0%", "150%", "1e400"])
    func rejectsNonsenseCapacities(text: String) {
        #expect(throws: QuantityError.self) { try CapacitySpec(parsing: text) }
    }

    @Test(
        arguments: [
            ("300s", 300_000), ("5m", 300_000), ("1.5h", 5_400_000), ("7d", 604_800_000), ("250ms", 250),
            ("60", 60_000),
        ] as [(String, Int64)])
    func parsesDurations(text: String, milliseconds: Int64) throws {
        #expect(try Quantity.milliseconds(parsing: text) == milliseconds)
    }

    @Test(arguments: ["0s", "soon", "-1m"])
    func rejectsNonsenseDurations(text: String) {
        #expect(throws: QuantityError.self) { try Quantity.milliseconds(parsing: text) }
    }
}
