import Testing

@testable import CacheLab

@Suite("Comparing two traces of one list")
struct TraceComparisonTests {
    static func trace(_ names: [String]) -> Trace {
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        var trace = Trace(name: "t", keyNames: unique)
        for (time, name) in names.enumerated() {
            trace.append(time: Int64(time), key: UInt64(unique.firstIndex(of: name)!), size: 10)
        }
        return trace
    }

    @Test func theSameFirstRequestsInTheSameOrderAgreeFully() {
        let comparison = TraceComparison(Self.trace(["a", "b", "c", "a"]), Self.trace(["a", "b", "b", "c"]))
        #expect(comparison.requests == (4, 4) && comparison.keys == (3, 3) && comparison.common == 3)
        #expect(comparison.setAgreement == 1 && comparison.rankCorrelation == 1 && comparison.meanRankShift == 0)
    }

    @Test func keysOnlyOneAskedForAndAReversedOrderAreReported() {
        let comparison = TraceComparison(Self.trace(["a", "b", "c", "d"]), Self.trace(["d", "c", "b", "e"]))
        #expect(comparison.onlyFirst == ["a"] && comparison.onlySecond == ["e"])
        #expect(comparison.common == 3 && comparison.setAgreement == 3.0 / 5)
        // b, c, d against d, c, b: Spearman's rho is -1, each key two, zero and two ranks away
        #expect(comparison.rankCorrelation == -1)
        #expect(abs(comparison.meanRankShift - 4.0 / 3) < 1e-12)
    }

    @Test func anEmptyTraceSharesNothing() {
        let comparison = TraceComparison(Trace(name: "empty", keyNames: []), Self.trace(["a"]))
        #expect(comparison.setAgreement == 0 && comparison.common == 0 && comparison.onlySecond == ["a"])
    }
}

@Suite("A trace's invariants")
struct TraceInvariantTests {
    @Test func aWellFormedTraceHasNoProblemAndEachBrokenInvariantIsNamed() {
        var trace = Trace(name: "t", keyNames: ["a", "b"])
        trace.append(time: 0, key: 0, size: 10)
        trace.appendEvent(.favourite, time: 1, key: 1)
        trace.append(time: 2, key: 1, size: 20)
        #expect(trace.checkInvariants().isEmpty)

        // Storage changes only through Trace's methods, which keep the rules: a broken trace
        // can only be made whole, through the initializer.
        var keyed = TraceEvent(position: 0, time: 3, kind: .background)
        keyed.key = 1  // the initializer refuses it; a mutation does not
        let broken = Trace(
            name: "t", times: [0], keys: trace.keys, sizes: [0, 20],
            events: trace.events + [TraceEvent(position: 5, time: 3, kind: .relaunch), keyed], keyNames: ["a"])
        #expect(
            broken.checkInvariants() == [
                "1 times and 2 sizes for 2 keys", "request 1 has size 0", "event 3 comes before the event ahead of it",
                "an event at position 5 of 2", "a background event with a key", "key 1 has no name (1 names)",
            ])
    }

    @Test(arguments: ScrollScenario.committed)
    func everyCommittedScenarioIsWellFormed(name: String) {
        #expect(ScrollScenario.named(name)!.makeTrace().checkInvariants().isEmpty)
    }
}
