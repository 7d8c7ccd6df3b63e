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
                policy: .lru, capacity: capacity, sizeMode: mode, admission: try AdmissionFilter(parsing: filter)))
        #expect(result.misses == misses, "\(filter) \(mode) \(capacity)")
    }
}
