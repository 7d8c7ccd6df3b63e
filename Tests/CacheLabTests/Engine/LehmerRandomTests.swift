import Testing

@testable import CacheLab

@Suite("LehmerRandom: libCacheSim's generator")
struct LehmerRandomTests {
    @Test func theFirstDrawsAreLibCacheSims() {
        // libCacheSim 0.3.5's next_rand() in a fresh thread (state 0xdeadbeef)
        let random = LehmerRandom()
        #expect(
            (0..<5).map { _ in random.next() } == [
                3_189_820_697, 6_199_708_794_445_739_982, 10_757_353_228_193_073_621,
                1_199_574_385_585_699_432, 1_443_071_350_103_987_160,
            ])
    }

    @Test func aSeedStartsAnotherStream() {
        let a = LehmerRandom(seed: 1)
        let b = LehmerRandom(seed: 1)
        let c = LehmerRandom(seed: 2)
        let drawsA = (0..<3).map { _ in a.next() }
        #expect(drawsA == (0..<3).map { _ in b.next() })
        #expect(drawsA != (0..<3).map { _ in c.next() })
    }

    @Test func aLookaheadShowsTheComingDrawsWithoutTakingThem() {
        let random = LehmerRandom(seed: 99)
        _ = random.next()
        var ahead = random.lookahead()
        let peeked = (ahead.next(), ahead.next())
        var again = random.lookahead()
        #expect((again.next(), again.next()) == peeked)
        #expect(random.draws == 1)
        #expect((random.next(), random.next()) == peeked)
        #expect(random.draws == 3)
        var further = random.lookahead(skipping: 3)
        let coming = (further.next(), further.next())
        for _ in 0..<3 { _ = random.next() }
        #expect((random.next(), random.next()) == coming)
    }
}
