import CacheLabTestSupport
import Foundation
import Testing

@testable import CacheLab

/// `Trace.nextUses()`: each request's next use, numbered as libCacheSim's oracleGeneral files.
@Suite("Next use of each request")
struct NextUseTests {
    @Test func repeatedKeysPointAtTheirNextRequestCountedFromOne() {
        // Given keys 1 2 1 1 3 2 at positions 1...6
        var trace = Trace(name: "repeats")
        for key: UInt64 in [1, 2, 1, 1, 3, 2] { trace.append(time: 0, key: key, size: 1) }
        // Then each points at the next request for its key, or never
        #expect(trace.nextUses() == [3, 6, 4, .max, .max, .max])
    }

    @Test func anEmptyTraceHasNoNextUses() {
        #expect(Trace(name: "empty").nextUses().isEmpty)
    }

    @Test func eventsDoNotCountAsRequests() {
        var trace = Trace(name: "events")
        trace.append(time: 0, key: 5, size: 1)
        trace.appendEvent(.relaunch, time: 1)
        trace.append(time: 2, key: 5, size: 1)
        #expect(trace.nextUses() == [2, .max])
    }

    @Test func namedKeysGiveWhatNumericKeysGive() {
        // Given a trace with named keys (the flat-array path) and the same ids without names
        let named = TraceFixtures.makeNamedTrace(count: 2_000)
        var numeric = named
        numeric.nameKeys(nil)
        // Then both paths agree, and agree with a direct search forward
        let uses = named.nextUses()
        #expect(uses == numeric.nextUses())
        for position in stride(from: 0, to: named.count, by: 37) {
            let later = named.keys[(position + 1)...].firstIndex(of: named.keys[position])
            #expect(uses[position] == later.map { Int64($0 + 1) } ?? .max)
        }
    }

    @Test func writtenOracleGeneralFilesCarryTheSameField() throws {
        // Given a random trace written as oracleGeneral
        let trace = TraceFixtures.makeNumericTrace(count: 1_000, seed: 5)
        let bytes = try TraceWriter.bytes(trace, format: .oracleGeneral)
        // Then its next_access_vtime field, -1 read as never, is nextUses()
        #expect(Self.nextAccessField(bytes) == trace.nextUses())
    }

    @Test(.enabled(if: SharedFixtures.tracesAvailable, "needs ../shared/traces"))
    func libCacheSimsOwnFileAgreesWithTheComputedNextUses() throws {
        // Given libCacheSim's cloudPhysicsIO oracleGeneral file (no size-0 records to drop)
        let path = try #require(SharedFixtures.trace("cloudPhysicsIO.oracleGeneral.bin"))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let trace = try TraceReader.read(path: path, format: .oracleGeneral)
        // Then the field it carries is exactly what cachelab computes
        let field = Self.nextAccessField(bytes)
        #expect(field.count == trace.count)
        #expect(field == trace.nextUses())
    }

    /// The `next_access_vtime` of every oracleGeneral record, with -1 (never) as `Int64.max`, as
    /// libCacheSim's reader turns it.
    static func nextAccessField(_ bytes: [UInt8]) -> [Int64] {
        let recordSize = TraceReader.oracleGeneralRecordSize
        return bytes.withUnsafeBytes { raw in
            (0..<(bytes.count / recordSize)).map { record in
                let value = Int64(
                    littleEndian: raw.loadUnaligned(fromByteOffset: record * recordSize + 16, as: Int64.self))
                return value == -1 ? .max : value
            }
        }
    }
}
