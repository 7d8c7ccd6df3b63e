import Testing

@testable import FixtureServer
@testable import RecipeClient

/// `ImageFormat` tells a whole image from one cut short, by its first and last bytes.
@Suite("ImageFormat")
struct ImageFormatTests {
    /// A small whole image of each format, with some payload between its markers.
    static func sample(_ format: ImageFormat) -> [UInt8] {
        let payload: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
        switch format {
        case .jpeg:
            return [0xFF, 0xD8, 0xFF, 0xE0] + payload + [0xFF, 0xD9]
        case .png:
            // Signature, a chunk's bytes, then the IEND chunk: length 0, type, CRC.
            return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + payload
                + [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        case .gif:
            return Array("GIF89a".utf8) + payload + [0x3B]
        case .webp:
            // RIFF, then the little-endian size of everything after these 8 bytes, then WEBP.
            let size = UInt32(4 + payload.count)
            return Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
                + Array("WEBP".utf8) + payload
        }
    }

    @Test(arguments: ImageFormat.allCases)
    func wholeImageIsRecognised(format: ImageFormat) {
        #expect(ImageFormat.whole(Self.sample(format)) == format)
    }

    @Test(arguments: ImageFormat.allCases)
    func imageCutShortIsNotWhole(format: ImageFormat) {
        let whole = Self.sample(format)
        for count in 0..<whole.count {
            #expect(ImageFormat.whole(Array(whole.prefix(count))) == nil, "\(format) cut to \(count) bytes")
        }
    }

    @Test func webPWithTrailingBytesIsNotWhole() {
        #expect(ImageFormat.whole(Self.sample(.webp) + [0x00]) == nil)
    }

    @Test func bytesOfNoKnownFormatAreNotAnImage() {
        #expect(ImageFormat.whole([]) == nil)
        #expect(ImageFormat.whole(Array("<html>503</html>".utf8)) == nil)
        // A RIFF file that is not WebP (a WAVE sound) of the right length
        var wave = Self.sample(.webp)
        wave.replaceSubrange(8..<12, with: Array("WAVE".utf8))
        #expect(ImageFormat.whole(wave) == nil)
    }

    @Test func everyPrefixOfAFixturePhotoIsCaught() {
        // The fixture server's photos escape FF in their filler, as a real JPEG does, so a body cut
        // anywhere lacks its end marker.
        let photo = FixtureCatalog.generated().recipes[0].smallPhoto
        let bytes = PhotoBody.bytes(of: photo, seed: 1)
        #expect(ImageFormat.whole(bytes) == .jpeg)
        for count in stride(from: 0, to: bytes.count, by: 97) + [bytes.count - 2, bytes.count - 1] {
            #expect(ImageFormat.whole(Array(bytes.prefix(count))) == nil, "cut to \(count) of \(bytes.count) bytes")
        }
    }
}
