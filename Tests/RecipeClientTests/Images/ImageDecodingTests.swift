import ClientModel
import Testing

@testable import FixtureServer
@testable import RecipeClient

/// Reading an image's pixel size from its header, and the pipeline costing a bitmap by it.
@Suite("Image headers and the pluggable decoder")
struct ImageDecodingTests {
    /// A 150×150 photo as the fixture server sends it: a real JPEG.
    static let photo = PhotoBody.bytes(
        of: FixtureCatalog.Photo(folder: "f", file: "small.jpg", size: 9_959, isLarge: false), seed: 1)

    static func littleEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        littleEndian(value, count).reversed()
    }

    /// Headers of each format for a 640×480 image, as their specifications lay them out.
    static let headers: [(String, [UInt8])] = [
        (
            "PNG",
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13, 4) + Array("IHDR".utf8)
                + bigEndian(640, 4) + bigEndian(480, 4) + [8, 6, 0, 0, 0]
        ),
        ("GIF", Array("GIF89a".utf8) + littleEndian(640, 2) + littleEndian(480, 2) + [0, 0, 0]),
        (
            "WebP, extended",
            Array("RIFF".utf8) + littleEndian(22, 4) + Array("WEBPVP8X".utf8) + littleEndian(10, 4)
                + [0, 0, 0, 0] + littleEndian(639, 3) + littleEndian(479, 3)
        ),
        (
            "WebP, lossless",
            Array("RIFF".utf8) + littleEndian(22, 4) + Array("WEBPVP8L".utf8) + littleEndian(10, 4)
                + [0x2F] + littleEndian(639 | 479 << 14, 4) + [0, 0, 0, 0, 0]
        ),
        (
            "WebP, lossy",
            Array("RIFF".utf8) + littleEndian(22, 4) + Array("WEBPVP8 ".utf8) + littleEndian(10, 4)
                + [0, 0, 0, 0x9D, 0x01, 0x2A] + littleEndian(640, 2) + littleEndian(480, 2)
        ),
        (
            // A progressive JPEG (SOF2) after a DHT segment and fill bytes.
            "JPEG, progressive",
            [0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x03, 0x00, 0xFF, 0xFF, 0xC2, 0x00, 0x0B, 0x08]
                + bigEndian(480, 2) + bigEndian(640, 2) + [0x01, 0x01, 0x11, 0x00]
        ),
    ]

    @Test func theFixturePhotoDeclaresItsPixels() {
        #expect(ImageHeader.pixelSize(of: Self.photo) == PixelSize(width: 150, height: 150))
    }

    @Test func eachFormatsHeaderGivesItsSizeAndACutOneNothing() {
        for (format, header) in Self.headers {
            #expect(ImageHeader.pixelSize(of: header) == PixelSize(width: 640, height: 480), "\(format)")
            // Cut before its last size byte, no format's header says a size.
            let sizeEnd = header.count - (format.hasPrefix("JPEG") ? 4 : format == "PNG" ? 5 : format == "GIF" ? 3 : 0)
            for count in 0..<sizeEnd where format.hasPrefix("WebP") ? count < 30 : true {
                #expect(ImageHeader.pixelSize(of: Array(header.prefix(count))) == nil, "\(format) cut to \(count)")
            }
        }
        #expect(ImageHeader.pixelSize(of: Array("not an image".utf8)) == nil)
    }

    /// Answers every image as 10×10.
    struct TenByTen: ImageDecoding {
        func pixelSize(of bytes: [UInt8]) -> PixelSize? { PixelSize(width: 10, height: 10) }
    }

    /// Serves the 150×150 photo for every URL.
    struct PhotoDownloader: ImageDownloading {
        func download(_ url: String) async throws -> [UInt8] { ImageDecodingTests.photo }
    }

    @Test func theMemoryTierCostsABitmapByWhatTheDecoderReads() async throws {
        // Given a memory-only client of 200,000 bytes, costing decoded bitmaps, and requests that
        // give no pixel size for photos of 150×150 (90,000 bytes decoded, 9,959 encoded)
        let client = ClientConfiguration(
            name: "memory", memory: TierConfiguration(policy: .lru, capacity: 200_000), disk: nil)
        func held(decoder: (any ImageDecoding)?) async throws -> (count: Int, peak: Int) {
            let pipeline = try ImagePipeline(
                client: client, diskPath: nil, downloader: PhotoDownloader(), at: 0, decoder: decoder)
            for number in 1...3 { _ = try await pipeline.image(for: "http://x/\(number).jpg", at: Int64(number)) }
            let holdings = await pipeline.holdings
            return (holdings.memoryCount, holdings.peakMemoryCost)
        }
        // Then the header's reading costs each 90,000 bytes: two fit
        #expect(try await held(decoder: ImageHeaderDecoder()) == (2, 180_000))
        // An app's own decoder is asked instead
        #expect(try await held(decoder: TenByTen()) == (3, 1_200))
        // And without one, each costs its encoded bytes, as a trace without pixel sizes does
        #expect(try await held(decoder: nil) == (3, 3 * 9_959))
    }
}
