import ClientModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Generates a Zipf trace a chunk at a time: memory is the object catalog and the popularity
/// tables (24 bytes an object), whatever the number of requests.
///
/// - Complexity: O(objects) to build the tables, then O(1) expected per request.
public final class ZipfStream: RequestStream {
    private let parameters: ZipfParameters
    private let popularity: Popularity
    /// Each rank's id and size, side by side: one cache line per request.
    private let catalog: [(id: UInt64, size: Int)]
    private var draws: SplitMix64
    /// Milliseconds, kept fractional so short gaps add up.
    private var clock = 0.0
    private var produced = 0

    public var name: String { parameters.name }
    public var progress: (done: Int, total: Int?) { (produced, parameters.requests) }

    public init(_ parameters: ZipfParameters) {
        self.parameters = parameters
        // Separate streams, so that changing the number of requests leaves ids and sizes alone.
        draws = SplitMix64(seed: parameters.seed)
        var objectDraws = SplitMix64(seed: parameters.seed ^ 0x6F62_6A65_6374_7321)
        let salt = objectDraws.next()
        popularity = Popularity(objects: parameters.objects, alpha: parameters.alpha)
        let sizes = parameters.sizes
        catalog = (0..<parameters.objects).map { rank in
            (id: Self.objectID(rank: rank, salt: salt), size: Self.size(sizes, &objectDraws))
        }
    }

    public func next(into chunk: inout RequestChunk) throws(TraceError) -> Bool {
        guard produced < parameters.requests else {
            chunk.fill(from: produced) { _ in }
            return false
        }
        let count = min(chunk.capacity, parameters.requests - produced)
        chunk.fill(from: produced) { writer in
            for _ in 0..<count {
                let object = catalog[popularity.rank(for: draws.nextUnit())]
                // Exponential gap with a mean of 10 ms: 100 requests per second on average.
                clock += -log(1 - draws.nextUnit()) * 10
                writer.append(time: Int64(clock), key: object.id, size: object.size)
            }
        }
        produced += count
        return true
    }

    private static func size(_ sizes: SizeDistribution, _ draws: inout SplitMix64) -> Int {
        switch sizes {
        case .logUniform(let low, let high):
            return logUniform(low, high, unit: draws.nextUnit())
        case .images:
            let large = draws.nextUnit() < 1.0 / 8
            let unit = draws.nextUnit()
            return large ? logUniform(50_000, 160_000, unit: unit) : logUniform(6_000, 16_000, unit: unit)
        }
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
