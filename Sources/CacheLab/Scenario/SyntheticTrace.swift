#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Generated traces with a known shape, for benchmarks and for tests that need volume.
public enum SyntheticTrace {
    /// Independent requests whose popularity follows a Zipf law: the object of popularity rank
    /// `k` (1-based) is requested with probability proportional to `1 / k^alpha`.
    ///
    /// - Objects have ids that look like hashed ids (a bijective scramble of the rank, salted by
    ///   the seed) and one fixed size each, log-uniform in `minSize...maxSize` (mostly small, a
    ///   few large; the median is near `sqrt(minSize × maxSize)`), drawn independently of rank.
    /// - Requests arrive as a Poisson process of 100 requests per second of trace time.
    /// - Everything is drawn from `SplitMix64`, so the same arguments give the same trace.
    ///
    /// - Complexity: O(objects) to build the popularity tables, then O(1) expected per request.
    public static func zipf(
        requests: Int,
        objects: Int,
        alpha: Double,
        seed: UInt64,
        minSize: Int = 1_000,
        maxSize: Int = 100_000
    ) -> Trace {
        precondition(requests >= 0, "requests must not be negative")
        precondition(objects >= 1, "a Zipf trace needs at least one object")
        precondition(alpha >= 0 && alpha.isFinite, "alpha must be a finite number >= 0")
        precondition(minSize >= 1 && minSize <= maxSize, "sizes need 1 <= minSize <= maxSize")

        // Separate streams, so that changing the number of requests leaves ids and sizes alone.
        var draws = SplitMix64(seed: seed)
        var objectDraws = SplitMix64(seed: seed ^ 0x6F62_6A65_6374_7321)
        let salt = objectDraws.next()

        let popularity = Popularity(objects: objects, alpha: alpha)
        // Id and size side by side: one cache line per request.
        let catalog = (0..<objects).map { rank in
            let size = logUniform(minSize, maxSize, unit: objectDraws.nextUnit())
            return (id: objectID(rank: rank, salt: salt), size: size)
        }

        var trace = Trace(name: "zipf(alpha=\(alpha), objects=\(objects), seed=\(seed))")
        trace.reserveCapacity(requests)
        var clock = 0.0  // milliseconds, kept fractional so short gaps add up
        for _ in 0..<requests {
            let object = catalog[popularity.rank(for: draws.nextUnit())]
            // Exponential gap with a mean of 10 ms: 100 requests per second on average.
            clock += -log(1 - draws.nextUnit()) * 10
            trace.append(time: Int64(clock), key: object.id, size: object.size)
        }
        return trace
    }

    // Inverse-transform sampling of the Zipf law with a guide table (Chen and Asau, 1974): the
    // search for a draw `u` starts at the first rank whose cumulative probability exceeds
    // `floor(u × m) / m`, so it takes about two steps instead of a binary search's log2(objects).
    private struct Popularity {
        // Entry `i` is P(rank <= i + 1); the last entry is exactly 1, so every draw in 0..<1
        // lands on some rank.
        var cumulative: [Double]
        var guide: [Int]

        init(objects: Int, alpha: Double) {
            cumulative = [Double](repeating: 0, count: objects)
            var total = 0.0
            for rank in 0..<objects {
                total += exp(-alpha * log(Double(rank + 1)))
                cumulative[rank] = total
            }
            for rank in 0..<objects { cumulative[rank] /= total }
            cumulative[objects - 1] = 1

            guide = [Int](repeating: 0, count: objects)
            var rank = 0
            for cell in 0..<objects {
                let lowest = Double(cell) / Double(objects)
                while cumulative[rank] <= lowest { rank += 1 }
                guide[cell] = rank
            }
        }

        /// The 0-based rank drawn by `unit`, uniform in 0..<1.
        @inline(__always)
        func rank(for unit: Double) -> Int {
            var rank = guide[min(Int(unit * Double(guide.count)), guide.count - 1)]
            while cumulative[rank] <= unit { rank += 1 }
            return rank
        }
    }

    // Adding a salt and the xor-shift/odd-multiply steps are each invertible on 64 bits, so
    // distinct ranks always get distinct ids.
    private static func objectID(rank: Int, salt: UInt64) -> UInt64 {
        var z = UInt64(rank) &+ salt
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func logUniform(_ low: Int, _ high: Int, unit: Double) -> Int {
        let size = Double(low) * exp(unit * log(Double(high) / Double(low)))
        return min(max(Int(size), low), high)
    }
}
