import ClientModel
import Testing

@testable import CacheLab

/// A client's memory tier charges decoded bitmaps (width × height × 4) where the trace gives
/// pixels, its disk tier the encoded bytes.
@Suite("Memory cost: decoded bitmaps in memory, encoded bytes on disk")
struct MemoryCostTests {
    static let thumbnail = PixelSize(width: 150, height: 150)

    /// Four 10 KB thumbnails of 150×150, a second apart, then all again.
    static func trace() -> Trace {
        var trace = Trace(name: "t")
        for round in 0..<2 {
            for key in 1...4 {
                trace.append(
                    time: Int64(round * 10 + key) * 1_000, key: UInt64(key), size: 10_000, pixels: thumbnail.packed)
            }
        }
        return trace
    }

    static func client(_ cost: MemoryCost) -> ClientConfiguration {
        ClientConfiguration(
            name: cost.rawValue, memory: TierConfiguration(policy: .lru, capacity: 200_000),
            disk: TierConfiguration(policy: .lru, capacity: 100_000), memoryCost: cost)
    }

    @Test func aThumbnailCostsItsBitmapInMemoryAndItsBytesOnDisk() {
        #expect(Self.thumbnail.decodedBytes == 90_000)
        #expect(MemoryCost.decoded.bytes(size: 10_000, pixels: Self.thumbnail.packed) == 90_000)
        #expect(MemoryCost.decoded.bytes(size: 10_000, pixels: 0) == 10_000)
        #expect(MemoryCost.encoded.bytes(size: 10_000, pixels: Self.thumbnail.packed) == 10_000)

        // Encoded, 200 KB of memory holds all four 10 KB photos: the second round hits memory
        let encoded = Replay.simulate(Self.trace(), client: Self.client(.encoded))
        #expect(encoded.memoryHits == 4 && encoded.diskHits == 0)
        #expect(encoded.client?.memoryPeakCost == 40_000)

        // Decoded, it holds two 90 KB bitmaps: the second round finds the first two on disk only
        let decoded = Replay.simulate(Self.trace(), client: Self.client(.decoded))
        #expect(decoded.memoryHits == 0 && decoded.diskHits == 4)
        #expect(decoded.client?.memoryPeakCost == 180_000)
        #expect(decoded.client?.diskPeakBytes == 40_000)
        #expect(decoded.hits == encoded.hits)
    }

    @Test func pixelSizesPackAndRoundTripThroughTheCachelabFormat() throws {
        #expect(PixelSize(packed: PixelSize(width: 700, height: 467).packed) == PixelSize(width: 700, height: 467))
        #expect(PixelSize(packed: 0) == nil)
        // A side of 0 is unknown, not free: the encoded bytes count.
        #expect(PixelSize(packed: 150 << 16) == nil && PixelSize(packed: 150) == nil)
        #expect(MemoryCost.decoded.bytes(size: 10_000, pixels: 150 << 16) == 10_000)
        var trace = Trace(name: "t", keyNames: ["a", "b"])
        trace.append(time: 0, key: 0, size: 5, pixels: PixelSize(width: 150, height: 150).packed)
        trace.append(time: 1, key: 1, size: 6)
        let text = String(decoding: try TraceWriter.bytes(trace, format: .cachelab), as: UTF8.self)
        #expect(text.hasSuffix("time,key,size,width,height\n0,a,5,150,150\n0.001,b,6,,\n"))
        let back = try TraceReader.read(bytes: Array(text.utf8), name: "t.csv")
        #expect(back.pixelSizes == trace.pixelSizes)
    }

    @Test func badPixelColumnsAreRefusedNamingTheLine() {
        #expect(
            TraceFixtures.failure("time,key,size,width\n1,a,5,3\n")
                == "t.csv:1: the header names width without height")
        #expect(
            TraceFixtures.failure("time,key,size,width,height\n1,a,5,150,\n")
                == "t.csv:2: width \"150\" and height \"\" are not both empty or both whole numbers of pixels from 1 to 65535"
        )
        #expect(
            TraceFixtures.failure("time,key,size,width,height\n1,a,5,70000,10\n")
                == "t.csv:2: width \"70000\" and height \"10\" are not both empty or both whole numbers of pixels from 1 to 65535"
        )
    }
}
