#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Generated traces with a known shape, for benchmarks and for tests that need volume.
public enum SyntheticTrace {
    /// Independent requests whose popularity follows a Zipf law, held in memory: `ZipfStream`
    /// read to the end (see `ZipfParameters` for the shape).
    public static func zipf(
        requests: Int,
        objects: Int,
        alpha: Double,
        seed: UInt64,
        minSize: Int = 1_000,
        maxSize: Int = 100_000
    ) -> Trace {
        zipf(
            ZipfParameters(
                requests: requests, objects: objects, alpha: alpha, seed: seed,
                sizes: .logUniform(min: minSize, max: maxSize)))
    }

    /// The trace `parameters` describe, held in memory.
    public static func zipf(_ parameters: ZipfParameters) -> Trace {
        // A generator never fails to read.
        try! ZipfStream(parameters).readAll()
    }
}

/// How the objects of a generated trace are sized.
public enum SizeDistribution: Sendable, Equatable, CustomStringConvertible {
    /// Log-uniform in `min...max` bytes: mostly small, a few large; the median is near
    /// `sqrt(min × max)`.
    case logUniform(min: Int, max: Int)
    /// Like an image list's photos: seven in eight objects are thumbnails of 6–16 KB, one in
    /// eight a large photo of 50–160 KB, each log-uniform in its range.
    case images

    public var description: String {
        switch self {
        case .logUniform(let low, let high): "\(low)-\(high)"
        case .images: "images"
        }
    }
}

/// A Zipf trace's shape: requests whose popularity follows a Zipf law, the object of popularity
/// rank `k` (1-based) requested with probability proportional to `1 / k^alpha`.
///
/// - Objects have ids that look like hashed ids (a bijective scramble of the rank, salted by
///   the seed) and one fixed size each, drawn from `sizes` independently of rank.
/// - Requests arrive as a Poisson process of 100 requests per second of trace time.
/// - Everything is drawn from `SplitMix64`, so the same parameters give the same trace.
public struct ZipfParameters: Sendable, Equatable {
    public var requests: Int
    public var objects: Int
    public var alpha: Double
    public var seed: UInt64
    public var sizes: SizeDistribution

    public init(
        requests: Int, objects: Int, alpha: Double, seed: UInt64,
        sizes: SizeDistribution = .logUniform(min: 1_000, max: 100_000)
    ) {
        precondition(requests >= 0, "requests must not be negative")
        precondition(objects >= 1, "a Zipf trace needs at least one object")
        precondition(alpha >= 0 && alpha.isFinite, "alpha must be a finite number >= 0")
        if case .logUniform(let low, let high) = sizes {
            precondition(low >= 1 && low <= high, "sizes need 1 <= min <= max")
        }
        self.requests = requests
        self.objects = objects
        self.alpha = alpha
        self.seed = seed
        self.sizes = sizes
    }

    /// The trace's name.
    public var name: String {
        let sized = sizes == .logUniform(min: 1_000, max: 100_000) ? "" : ", sizes=\(sizes)"
        return "zipf(alpha=\(alpha), objects=\(objects), seed=\(seed)\(sized))"
    }
}

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
