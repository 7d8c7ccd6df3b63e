import ClientModel
import Testing

@testable import CacheLab

@Suite("HistogramRecorder: the latency model, per request")
struct HistogramRecorderTests {
    @Test(arguments: NetworkProfile.allCases, TierKind.allCases)
    func eachRequestRecordsWhatTheModelSays(network: NetworkProfile, tier: TierKind) {
        let model = LatencyModel(network: network, tier: tier)
        var random = SplitMix64(seed: 7)
        let sizes =
            [0, 1, 399, 400, 401, 10_000, 2_000_000, 1 << 29, 1 << 30, 3 << 30]
            + (0..<2_000).map { _ in Int(random.next() >> 40) }
        for size in sizes {
            // When one hit, or one miss, of `size` is recorded
            var hit = HistogramRecorder(model)
            hit.hit(size: size)
            var miss = HistogramRecorder(model)
            miss.miss(size: size)
            // Then it took what the model gives for it
            #expect(hit.latencies.sum == model.hitMicroseconds(size: size), "hit of \(size) B")
            #expect(miss.latencies.sum == model.missMicroseconds(size: size), "miss of \(size) B")
        }
    }
}
