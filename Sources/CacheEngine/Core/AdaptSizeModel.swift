#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// AdaptSize's tuning (Berger, Sitaraman and Harchol-Balter, NSDI 2017): admit an object of size
/// s with probability e^(−s/c), and every `interval` requests choose the `c` that a Markov model of
/// the cache fed with the recent requests says gives the most hits, by a golden-section search
/// over log₂ c. The rules are libCacheSim 0.3.5's (`Adaptsize`), step for step, so that `c` is the
/// same double: each object's request rate is its count in the last interval plus 0.3 of its
/// earlier rate; objects below 0.1 are forgotten; the search starts from the best of log₂ c =
/// 2, 6, 10, … and runs at most 15 steps.
///
/// - Complexity: O(1) per request; O(objects × 20 × steps) per re-tuning.
@usableFromInline package final class AdaptSizeModel {
    /// Requests of an object in a window, and its latest size.
    @usableFromInline package struct Seen {
        @usableFromInline package var count: Double
        @usableFromInline package var size: Int

        @inlinable package init(count: Double, size: Int) {
            self.count = count
            self.size = size
        }
    }

    @usableFromInline package let interval: Int
    @usableFromInline package let maxIterations = 15
    /// `c`: the size at which admission falls to 1/e.
    @exclusivity(unchecked) @usableFromInline package var parameter = 32_768.0
    @exclusivity(unchecked) @usableFromInline package var untilReconfiguration: UInt64
    /// Bytes of the objects counted (each at its latest size).
    @exclusivity(unchecked) @usableFromInline package var statSize: UInt64 = 0
    /// The current interval's objects and the long-term ones, in the order first seen.
    @exclusivity(unchecked) @usableFromInline package var recent = OrderedCounts()
    @exclusivity(unchecked) @usableFromInline package var longTerm = OrderedCounts()

    @inlinable package init(interval: Int) {
        self.interval = interval
        untilReconfiguration = UInt64(interval)
    }

    /// Whether to admit an object of `size` (one draw from `random`).
    @inline(__always)
    @inlinable package func admits(size: Int, random: LehmerRandom) -> Bool {
        let probability = exp(Double(-size) / parameter)
        let roll = Double(random.next() % 10_000_000) / 10_000_000.0
        return roll < probability
    }

    /// Counts a request, hit or miss, in a cache of `capacity` (re-tuning first when it is time).
    @inlinable package func observe(_ key: UInt64, size: Int, capacity: Int) {
        reconfigure(capacity: capacity)
        let inRecent = recent.index(of: key)
        let inLongTerm = longTerm.index(of: key)
        if inRecent == nil, inLongTerm == nil {
            statSize &+= UInt64(truncatingIfNeeded: size)
        } else {
            if let index = inRecent, recent.sizes[index] != size {
                statSize =
                    statSize &- UInt64(truncatingIfNeeded: recent.sizes[index]) &+ UInt64(truncatingIfNeeded: size)
            }
            if let index = inLongTerm, longTerm.sizes[index] != size {
                statSize =
                    statSize &- UInt64(truncatingIfNeeded: longTerm.sizes[index]) &+ UInt64(truncatingIfNeeded: size)
            }
        }
        let index = inRecent ?? recent.append(key, count: 0, size: 0)
        recent.counts[index] += 1
        recent.sizes[index] = size
    }

    @inlinable package func reconfigure(capacity: Int) {
        untilReconfiguration &-= 1
        guard untilReconfiguration == 0 else { return }
        guard statSize > UInt64(capacity) &* 3 else {
            untilReconfiguration &+= 1_000
            return
        }
        untilReconfiguration = UInt64(interval)
        for index in longTerm.keys.indices { longTerm.counts[index] *= 0.3 }
        for (index, key) in recent.keys.enumerated() {
            if let known = longTerm.index(of: key) {
                longTerm.counts[known] += (1 - 0.3) * recent.counts[index]
                longTerm.sizes[known] = recent.sizes[index]
            } else {
                _ = longTerm.append(key, count: recent.counts[index], size: recent.sizes[index])
            }
        }
        recent = OrderedCounts()
        var kept = OrderedCounts()
        for (index, key) in longTerm.keys.enumerated() {
            if longTerm.counts[index] < 0.1 {
                statSize &-= UInt64(truncatingIfNeeded: longTerm.sizes[index])
            } else {
                _ = kept.append(key, count: longTerm.counts[index], size: longTerm.sizes[index])
            }
        }
        longTerm = kept
        search(capacity: Double(capacity))
    }

    /// The golden-section search for log₂ c.
    @inlinable package func search(capacity: Double) {
        let seen = longTerm.counts
        let sizes = longTerm.sizes.map(Double.init)
        var probabilities = [Double](repeating: 0, count: seen.count)
        func model(_ log2c: Double) -> Double {
            Self.hitRate(log2c: log2c, seen: seen, sizes: sizes, capacity: capacity, probabilities: &probabilities)
        }
        let ratio = 0.61803399
        let complement = 1 - ratio
        var x0 = 0.0
        var x1 = log2(capacity)
        var x2 = x1
        var x3 = x1
        var best = 0.0
        var candidate = 2
        while Double(candidate) < x3 {
            let rate = model(Double(candidate))
            if rate > best {
                best = rate
                x1 = Double(candidate)
            }
            candidate += 4
        }
        var h1 = best
        var h2: Double
        if x3 - x1 > x1 - x0 {
            x2 = x1 + complement * (x3 - x1)
            h2 = model(x2)
        } else {
            x2 = x1
            h2 = h1
            x1 = x0 + complement * (x1 - x0)
            h1 = model(x1)
        }
        var iteration = 0
        while iteration < maxIterations, abs(x3 - x0) > 3.0e-8 * (abs(x1) + abs(x2)) {
            iteration += 1
            if h1.isNaN || h2.isNaN { break }
            if h2 > h1 {
                x0 = x1
                x1 = x2
                x2 = ratio * x1 + complement * x3
                h1 = h2
                h2 = model(x2)
            } else {
                x3 = x2
                x2 = x1
                x1 = ratio * x2 + complement * x0
                h2 = h1
                h1 = model(x1)
            }
        }
        if !h1.isNaN, !h2.isNaN { parameter = pow(2, h1 > h2 ? x1 : x2) }
    }

    /// The object hit rate the model predicts for c = 2^log2c: the characteristic time `T` of a
    /// cache of `capacity` under these rates, found by fixed-point iteration, then each object's
    /// hit probability (a fourth-order approximation).
    @inlinable package static func hitRate(
        log2c: Double, seen: [Double], sizes: [Double], capacity: Double, probabilities: inout [Double]
    ) -> Double {
        var sum = 0.0
        for index in seen.indices {
            sum += seen[index] * exp(-sizes[index] / pow(2, log2c)) * sizes[index]
        }
        guard sum > 0 else { return 0 }
        var time = capacity / sum
        for index in seen.indices { probabilities[index] = exp(-sizes[index] / pow(2.0, log2c)) }
        for _ in 0..<20 {
            if time > 1e70 { break }
            var occupied = 0.0
            for index in seen.indices {
                let rate = seen[index] * time
                if rate > 150 {
                    occupied += sizes[index]
                } else {
                    let expected = exp(rate) - 1
                    let admitted = probabilities[index] * expected
                    occupied += sizes[index] * (admitted / (1 + admitted))
                }
            }
            time = capacity * time / occupied
        }
        var weighted = 0.0
        for index in seen.indices {
            let l = seen[index]
            let p = probabilities[index]
            let t = time
            let a = l * p * t * (840 + 60 * l * t + 20 * l * l * t * t + l * l * l * t * t * t)
            let b =
                840 + 120 * l * (-3 + 7 * p) * t + 60 * l * l * (1 + p) * t * t + 4 * l * l * l * (-1 + 5 * p) * t * t
                * t
                + l * l * l * l * p * t * t * t * t
            var hit = a != 0 && b == 0 ? 0 : a / b
            if hit < 0 { hit = 0 } else if hit > 1 { hit = 1 }
            weighted += l * hit
        }
        return weighted
    }
}

/// Counts and sizes by key, in the order keys were first added.
@usableFromInline package struct OrderedCounts {
    @usableFromInline package var keys: [UInt64] = []
    @usableFromInline package var counts: [Double] = []
    @usableFromInline package var sizes: [Int] = []
    @usableFromInline package var positions: [UInt64: Int] = [:]

    @inlinable package func index(of key: UInt64) -> Int? { positions[key] }

    @inlinable package mutating func append(_ key: UInt64, count: Double, size: Int) -> Int {
        positions[key] = keys.count
        keys.append(key)
        counts.append(count)
        sizes.append(size)
        return keys.count - 1
    }

    @inlinable package init(
        keys: [UInt64] = [], counts: [Double] = [], sizes: [Int] = [], positions: [UInt64: Int] = [:]
    ) {
        self.keys = keys
        self.counts = counts
        self.sizes = sizes
        self.positions = positions
    }
}
