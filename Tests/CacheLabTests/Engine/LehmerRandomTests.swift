import CacheEngine
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

    @Test func drawsAndLookaheadsAgreeAcrossManyRefills() {
        // The generator computes its coming draws in batches; whatever the mix of draws and
        // lookaheads (up to the farthest one allowed), the stream is the one drawn plainly.
        let plain = LehmerRandom(seed: 7)
        let expected = (0..<3 * LehmerRandom.bufferSize).map { _ in plain.next() }
        let random = LehmerRandom(seed: 7)
        var taken: [UInt64] = []
        var step = 0
        while taken.count < expected.count - LehmerRandom.bufferSize {
            step += 1
            let skipping = (step * 37) % (LehmerRandom.bufferSize - LehmerRandom.lookaheadReach + 1)
            var ahead = random.lookahead(skipping: skipping)
            let peeked = (0..<LehmerRandom.lookaheadReach).map { _ in ahead.next() }
            let at = taken.count + skipping
            #expect(peeked == Array(expected[at..<at + LehmerRandom.lookaheadReach]))
            for _ in 0..<(step % 5) { taken.append(random.next()) }
        }
        #expect(taken == Array(expected[0..<taken.count]))
        #expect(random.draws == UInt64(taken.count))
    }

    @Test func aReseedStartsTheBufferedStreamAgain() {
        let random = LehmerRandom(seed: 3)
        let first = (0..<10).map { _ in random.next() }
        _ = random.lookahead(skipping: LehmerRandom.bufferSize - LehmerRandom.lookaheadReach)
        random.reseed(3)
        #expect(random.draws == 0)
        #expect((0..<10).map { _ in random.next() } == first)
    }
}
