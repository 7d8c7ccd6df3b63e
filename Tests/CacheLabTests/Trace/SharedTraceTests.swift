import CacheLabTestSupport
import Testing

@testable import CacheLab

/// libCacheSim's cloudPhysicsIO trace in its three encodings, from `../shared/traces`.
@Suite(.enabled(if: SharedFixtures.tracesAvailable, "needs ../shared/traces"))
struct SharedTraceTests {
    static let requests = 113_872
    static let uniqueIds = 48_974

    func read(_ name: String, columns: CSVColumns? = nil) throws -> Trace {
        let path = try #require(SharedFixtures.trace(name), "\(name) is missing from ../shared/traces")
        return try TraceReader.read(path: path, columns: columns)
    }

    @Test func readsTheCSVWithItsColumnSpec() throws {
        let trace = try read("cloudPhysicsIO.csv", columns: CSVColumns(parsing: "time=2,id=5,size=4"))
        #expect(trace.count == Self.requests)
        #expect(Set(trace.keys).count == Self.uniqueIds)
        #expect(trace.name == "cloudPhysicsIO.csv")
        #expect(trace.keys.first == 42_932_745)
        #expect(trace.times.first == 5_633_898_000)
        #expect(trace.sizes.first == 512)
        // The header (version,time,op,size,lbn) names the same columns.
        #expect(try read("cloudPhysicsIO.csv") == trace)
    }

    @Test func readsTheTextAndBinaryEncodings() throws {
        for name in ["cloudPhysicsIO.txt", "cloudPhysicsIO.oracleGeneral.bin"] {
            let trace = try read(name)
            #expect(trace.count == Self.requests, "\(name)")
            #expect(Set(trace.keys).count == Self.uniqueIds, "\(name)")
        }
    }

    @Test func agreesOnTheIdSequenceAcrossTheThreeEncodings() throws {
        let csv = try read("cloudPhysicsIO.csv", columns: CSVColumns(parsing: "time=2,id=5,size=4"))
        let text = try read("cloudPhysicsIO.txt")
        let binary = try read("cloudPhysicsIO.oracleGeneral.bin")
        #expect(csv.keys == text.keys)
        #expect(csv.keys == binary.keys)
        #expect(csv.times == binary.times)
        // The binary keeps each object's first size; the CSV has every request's own.
        #expect(Set(binary.sizes).count <= Set(csv.sizes).count)
    }

    @Test func rewritesTheBinaryByteForByte() throws {
        // Given libCacheSim's own oracleGeneral file
        let path = try #require(SharedFixtures.trace("cloudPhysicsIO.oracleGeneral.bin"))
        let original = try TraceReader.contents(ofFile: path)

        // When it is read and written again
        let rewritten = try TraceWriter.bytes(try TraceReader.read(path: path), format: .oracleGeneral)

        // Then the bytes are identical, next_access_vtime included
        #expect(rewritten == original)
    }
}
