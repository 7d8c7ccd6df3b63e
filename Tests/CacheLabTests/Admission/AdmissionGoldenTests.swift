import CacheEngine
import CacheLabTestSupport
import Testing

@testable import CacheLab

/// LRU behind each admission filter on libCacheSim's CloudPhysics trace, against libcachesim
/// 0.3.5's own counts (its admissioners from Python, each run in a fresh thread so its random
/// stream starts where a cache's does): 1 %, 5 % and 10 % of the working set, both size modes.
@Suite("Admission filters against libCacheSim", .enabled(if: SharedFixtures.tracesAvailable, "needs ../shared/traces"))
struct AdmissionGoldenTests {
    static let rows: [(filter: String, mode: SizeMode, capacity: Int, misses: Int)] = [
        ("bloom", .bytes, 20297697, 96603),
        ("bloom", .bytes, 101488486, 95428),
        ("bloom", .bytes, 202976972, 92713),
        ("bloom", .unit, 489, 96657),
        ("bloom", .unit, 2448, 95323),
        ("bloom", .unit, 4897, 92734),
        ("size:8193", .bytes, 20297697, 93407),
        ("size:8193", .bytes, 101488486, 83299),
        ("size:8193", .bytes, 202976972, 83299),
        ("size:8193", .unit, 489, 95420),
        ("size:8193", .unit, 2448, 93897),
        ("size:8193", .unit, 4897, 91657),
        ("prob:0.5", .bytes, 20297697, 96682),
        ("prob:0.5", .bytes, 101488486, 95417),
        ("prob:0.5", .bytes, 202976972, 91551),
        ("prob:0.5", .unit, 489, 96986),
        ("prob:0.5", .unit, 2448, 95191),
        ("prob:0.5", .unit, 4897, 91618),
        ("prob:0.1", .bytes, 20297697, 101214),
        ("prob:0.1", .bytes, 101488486, 97909),
        ("prob:0.1", .bytes, 202976972, 94712),
        ("prob:0.1", .unit, 489, 101119),
        ("prob:0.1", .unit, 2448, 97650),
        ("prob:0.1", .unit, 4897, 94094),
        ("sizeprob:1e-6", .bytes, 20297697, 94957),
        ("sizeprob:1e-6", .bytes, 101488486, 93699),
        ("sizeprob:1e-6", .bytes, 202976972, 92060),
        ("sizeprob:1e-6", .unit, 489, 95420),
        ("sizeprob:1e-6", .unit, 2448, 93897),
        ("sizeprob:1e-6", .unit, 4897, 91657),
        ("sizeprob:1e-4", .bytes, 20297697, 93501),
        ("sizeprob:1e-4", .bytes, 101488486, 87822),
        ("sizeprob:1e-4", .bytes, 202976972, 87822),
        ("sizeprob:1e-4", .unit, 489, 95419),
        ("sizeprob:1e-4", .unit, 2448, 93897),
        ("sizeprob:1e-4", .unit, 4897, 91658),
        ("adaptsize", .bytes, 20297697, 95932),
        ("adaptsize", .bytes, 101488486, 85819),
        ("adaptsize", .bytes, 202976972, 81174),
        ("adaptsize", .unit, 489, 97236),
        ("adaptsize", .unit, 2448, 95123),
        ("adaptsize", .unit, 4897, 90863),
    ]

    static let trace: Trace = {
        let path = SharedFixtures.trace("cloudPhysicsIO.oracleGeneral.bin")!
        return try! TraceSource.file(path).open().readAll()
    }()

    @Test(arguments: rows.indices)
    func lruBehindTheFilterMissesAsLibCacheSim(row: Int) throws {
        let (filter, mode, capacity, misses) = Self.rows[row]
        let result = Replay.simulate(
            Self.trace,
            RunConfiguration(
                policy: .lru, capacity: capacity, sizeMode: mode, admission: try AdmissionFilter(parsing: filter)),
            latency: false)
        #expect(result.misses == misses, "\(filter) \(mode) \(capacity)")
    }
}

/// The sampled and learning policies behind a filter, on the same trace, against libcachesim 0.3.5
/// (each run in a fresh thread): the filter and the policy draw from one stream, in libCacheSim's
/// order, and LHD's hit takes the request's size while AdaptSize counts it.
@Suite(
    "Randomized policies behind admission filters against libCacheSim",
    .enabled(if: SharedFixtures.tracesAvailable, "needs ../shared/traces"))
struct RandomizedAdmissionGoldenTests {
    static let rows: [(policy: PolicyKind, filter: String, mode: SizeMode, capacity: Int, misses: Int)] = [
        (.random, "prob:0.5", .unit, 489, 98806),
        (.random, "prob:0.5", .unit, 2448, 94817),
        (.random, "prob:0.5", .unit, 4897, 91166),
        (.random, "prob:0.5", .bytes, 20297697, 97272),
        (.random, "prob:0.5", .bytes, 101488486, 94686),
        (.random, "prob:0.5", .bytes, 202976972, 91395),
        (.lhd, "sizeprob:5e-5", .unit, 489, 95226),
        (.lhd, "sizeprob:5e-5", .unit, 2448, 93787),
        (.lhd, "sizeprob:5e-5", .unit, 4897, 91553),
        (.lhd, "sizeprob:5e-5", .bytes, 20297697, 92849),
        (.lhd, "sizeprob:5e-5", .bytes, 101488486, 87399),
        (.lhd, "sizeprob:5e-5", .bytes, 202976972, 83015),
        (.lecar, "prob:0.3", .unit, 489, 98161),
        (.lecar, "prob:0.3", .unit, 2448, 96084),
        (.lecar, "prob:0.3", .unit, 4897, 91182),
        (.lecar, "prob:0.3", .bytes, 20297697, 97362),
        (.lecar, "prob:0.3", .bytes, 101488486, 95308),
        (.lecar, "prob:0.3", .bytes, 202976972, 91939),
        (.cacheus, "prob:0.5", .unit, 489, 96379),
        (.cacheus, "prob:0.5", .unit, 2448, 94520),
        (.cacheus, "prob:0.5", .unit, 4897, 91798),
        (.cacheus, "prob:0.5", .bytes, 20297697, 95362),
        (.cacheus, "prob:0.5", .bytes, 101488486, 92229),
        (.cacheus, "prob:0.5", .bytes, 202976972, 88682),
        (.beladysize, "bloom", .unit, 489, 93252),
        (.beladysize, "bloom", .unit, 2448, 86023),
        (.beladysize, "bloom", .unit, 4897, 80061),
        (.beladysize, "bloom", .bytes, 20297697, 92540),
        (.beladysize, "bloom", .bytes, 101488486, 85542),
        (.beladysize, "bloom", .bytes, 202976972, 80833),
        (.hyperbolic, "sizeprob:5e-5", .unit, 489, 95033),
        (.hyperbolic, "sizeprob:5e-5", .unit, 2448, 93416),
        (.hyperbolic, "sizeprob:5e-5", .unit, 4897, 91429),
        (.hyperbolic, "sizeprob:5e-5", .bytes, 20297697, 93956),
        (.hyperbolic, "sizeprob:5e-5", .bytes, 101488486, 89456),
        (.hyperbolic, "sizeprob:5e-5", .bytes, 202976972, 83160),
        (.lhd, "adaptsize", .unit, 489, 96990),
        (.lhd, "adaptsize", .unit, 2448, 94875),
        (.lhd, "adaptsize", .unit, 4897, 91208),
        (.lhd, "adaptsize", .bytes, 20297697, 93342),
        (.lhd, "adaptsize", .bytes, 101488486, 85087),
        (.lhd, "adaptsize", .bytes, 202976972, 81500),
        (.lecar, "bloom", .unit, 489, 96700),
        (.lecar, "bloom", .unit, 2448, 95317),
        (.lecar, "bloom", .unit, 4897, 92734),
        (.lecar, "bloom", .bytes, 20297697, 95973),
        (.lecar, "bloom", .bytes, 101488486, 95308),
        (.lecar, "bloom", .bytes, 202976972, 92696),
        (.random, "size:16384", .unit, 489, 97074),
        (.random, "size:16384", .unit, 2448, 93684),
        (.random, "size:16384", .unit, 4897, 90343),
        (.random, "size:16384", .bytes, 20297697, 93359),
        (.random, "size:16384", .bytes, 101488486, 83107),
        (.random, "size:16384", .bytes, 202976972, 83107),
    ]

    @Test(arguments: rows.indices)
    func policyBehindTheFilterMissesAsLibCacheSim(row: Int) throws {
        let (policy, filter, mode, capacity, misses) = Self.rows[row]
        let result = Replay.simulate(
            AdmissionGoldenTests.trace,
            RunConfiguration(
                policy: policy, capacity: capacity, sizeMode: mode, admission: try AdmissionFilter(parsing: filter)),
            latency: false)
        #expect(result.misses == misses, "\(policy) \(filter) \(mode) \(capacity)")
    }
}
