import CacheLab
import Testing

@Suite struct SyntheticTraceTests {
    func makeTrace(
        requests: Int = 20_000, objects: Int = 1_000, alpha: Double = 0.9, seed: UInt64 = 7
    ) -> Trace {
        SyntheticTrace.zipf(requests: requests, objects: objects, alpha: alpha, seed: seed)
    }

    @Test func sameSeedGivesAnIdenticalTrace() {
        // Given two traces built from the same arguments
        let first = makeTrace()
        let second = makeTrace()

        // Then they are equal request for request
        #expect(first.count == 20_000)
        #expect(first == second)
    }

    @Test func differentSeedsGiveDifferentTraces() {
        // Given traces that differ only by seed
        let first = makeTrace(seed: 7)
        let second = makeTrace(seed: 8)

        // Then ids, sizes and times all differ
        #expect(first.keys != second.keys)
        #expect(Set(first.keys).isDisjoint(with: second.keys))
        #expect(first.sizes != second.sizes)
        #expect(first.times != second.times)
    }

    @Test func mostPopularObjectIsRequestedFarMoreThanTheMedianOne() {
        // Given a Zipf(0.9) trace over 1,000 objects
        let trace = makeTrace()

        // When requests are counted per object
        var counts: [UInt64: Int] = [:]
        for key in trace.keys { counts[key, default: 0] += 1 }
        let ranked = counts.values.sorted(by: >)

        // Then the top object dwarfs the median one (the law predicts a ratio near 500^0.9 ≈ 270)
        #expect(ranked.count <= 1_000)
        let median = ranked[ranked.count / 2]
        #expect(ranked[0] > 50 * median, "top \(ranked[0]), median \(median)")
        // and it gets close to its expected share, about 9.5 % of all requests
        #expect((1_500...2_300).contains(ranked[0]), "top object requested \(ranked[0]) times")
    }

    @Test func alphaZeroIsUniform() {
        // Given a trace whose popularity law is flat
        let trace = makeTrace(requests: 50_000, objects: 100, alpha: 0)

        // Then every object gets close to its equal share of 500 requests
        var counts: [UInt64: Int] = [:]
        for key in trace.keys { counts[key, default: 0] += 1 }
        #expect(counts.count == 100)
        #expect(counts.values.allSatisfy { (400...600).contains($0) })
    }

    @Test func idsLookHashedAndStayDistinct() {
        // Given a trace where every object is requested (tiny alpha, many requests)
        let trace = makeTrace(requests: 50_000, objects: 500, alpha: 0.2)
        let ids = Set(trace.keys)

        // Then there is one id per object, spread over 64 bits rather than 0..<objects
        #expect(ids.count == 500)
        #expect(ids.filter { $0 > UInt64(UInt32.max) }.count > 490)
    }

    @Test func eachObjectHasOneSizeWithinTheBounds() {
        // Given a trace with custom size bounds
        let trace = SyntheticTrace.zipf(
            requests: 20_000, objects: 1_000, alpha: 0.9, seed: 3, minSize: 2_000, maxSize: 50_000)

        // Then every size is within the bounds and an object never changes size
        var sizeOf: [UInt64: Int] = [:]
        for (key, size) in zip(trace.keys, trace.sizes) {
            #expect((2_000...50_000).contains(size))
            #expect(sizeOf.updateValue(size, forKey: key).map { $0 == size } ?? true)
        }
        // and sizes are skewed towards small: the median object is well under the midpoint
        let sizes = sizeOf.values.sorted()
        #expect(sizes[sizes.count / 2] < 15_000, "median size \(sizes[sizes.count / 2])")
        #expect(sizes.first! < 3_000 && sizes.last! > 40_000)
    }

    @Test func timeAdvancesAboutOneSecondPerHundredRequests() {
        // Given 20,000 requests at about 100 per second
        let trace = makeTrace()

        // Then time never goes back and spans about 200 seconds
        #expect(zip(trace.times, trace.times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect((190_000...210_000).contains(trace.times.last!), "last time \(trace.times.last!) ms")
    }

    @Test func degenerateSizesAndSingleObjectWork() {
        // Given one object of a fixed size
        let trace = SyntheticTrace.zipf(requests: 10, objects: 1, alpha: 1, seed: 1, minSize: 5, maxSize: 5)

        // Then every request is for it
        #expect(Set(trace.keys).count == 1)
        #expect(trace.sizes.allSatisfy { $0 == 5 })
        #expect(SyntheticTrace.zipf(requests: 0, objects: 10, alpha: 1, seed: 1).count == 0)
    }
}
