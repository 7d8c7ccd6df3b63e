import CacheLab
import ClientModel
import Foundation
import Testing

@testable import FixtureServer

/// The fixture server's photos are images: each decodes, at its pixel size, and is exactly its
/// byte size.
@Suite("Photo bodies: real JPEGs of the photo's pixels at its byte size")
struct PhotoBodyTests {
    /// libjpeg-turbo's command-line decoder (Debian: libjpeg-turbo-progs), when installed.
    static let djpeg = ["/usr/bin/djpeg", "/usr/local/bin/djpeg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test func everyPhotoOfTheCatalogIsAJPEGOfItsPixelSize() {
        for recipe in FixtureCatalog.generated().recipes {
            for photo in [recipe.smallPhoto, recipe.largePhoto] {
                let bytes = PhotoBody.bytes(of: photo, seed: 1)
                #expect(bytes.count == photo.size)
                #expect(ImageHeader.pixelSize(of: bytes) == photo.pixels, "\(photo.path)")
                #expect(Array(bytes.suffix(2)) == [0xFF, 0xD9])
            }
        }
    }

    @Test func anySizeIsExactAndTheImageShrinksOnlyWhenItMustTo() throws {
        // Every size from the smallest body to past where a 150×150 photo fits: padding of 0 to 3
        // bytes (fill bytes) and of more (comment segments) included.
        var previousSide = 0
        var sides: [Int: Int] = [:]
        for size in PhotoBody.minimumSize...700 {
            let photo = FixtureCatalog.Photo(folder: "f", file: "small.jpg", size: size, isLarge: false)
            let bytes = PhotoBody.bytes(of: photo, seed: 1)
            #expect(bytes.count == size)
            #expect(Array(bytes.prefix(2)) == [0xFF, 0xD8] && Array(bytes.suffix(2)) == [0xFF, 0xD9])
            let side = ImageHeader.pixelSize(of: bytes)?.width ?? 0
            // The side only grows with the size, by halvings of 150, square.
            #expect(side >= previousSide && [0, 9, 18, 37, 75, 150].contains(side), "\(size) bytes: \(side)")
            #expect(ImageHeader.pixelSize(of: bytes).map { $0.width == $0.height } ?? true)
            if side != previousSide { sides[side] = size }
            previousSide = side
        }
        #expect(sides.keys.sorted() == [9, 18, 37, 75, 150])
        // A photo of 150×150 fits from a few hundred bytes: the catalog's 8 KB and more always do.
        #expect(try #require(sides[150]) < 500)
    }

    @Test func theLargestPaddingsSplitIntoCommentSegments() {
        // A comment segment holds up to 65,537 bytes: sizes around one and two of them.
        let plain = PhotoBody.bytes(
            of: FixtureCatalog.Photo(folder: "f", file: "large.jpg", size: 10_000, isLarge: true), seed: 1)
        #expect(ImageHeader.pixelSize(of: plain) == PixelSize(width: 700, height: 700))
        for size in [65_540, 65_541, 65_542, 131_075, 131_076, 131_077, 131_080, 200_001] {
            let photo = FixtureCatalog.Photo(folder: "f", file: "large.jpg", size: size, isLarge: true)
            let bytes = PhotoBody.bytes(of: photo, seed: 1)
            #expect(bytes.count == size)
            #expect(ImageHeader.pixelSize(of: bytes) == PixelSize(width: 700, height: 700), "\(size)")
        }
    }

    @Test func theSameSeedGivesTheSameBytesAndAnotherAnotherColour() {
        let photo = FixtureCatalog.Photo(folder: "f", file: "small.jpg", size: 9_959, isLarge: false)
        #expect(PhotoBody.bytes(of: photo, seed: 1) == PhotoBody.bytes(of: photo, seed: 1))
        #expect(PhotoBody.bytes(of: photo, seed: 1) != PhotoBody.bytes(of: photo, seed: 2))
    }

    // Sizes where the image just fits with 0 to 4 bytes to spare (fill bytes, then a comment),
    // at seed 1: 150×150 from 453 bytes, 9×9 from 186; and comment segments of every length.
    @Test(arguments: [186, 187, 188, 189, 190, 453, 454, 455, 456, 457, 9_959, 65_542, 131_080])
    func libjpegDecodesThemWithoutAWarning(size: Int) throws {
        guard let djpeg = Self.djpeg else {
            print("skipped: no djpeg (apt-get install libjpeg-turbo-progs; CI installs it)")
            return
        }
        for (file, isLarge) in [("small.jpg", false), ("large.jpg", true)] {
            let photo = FixtureCatalog.Photo(folder: "f", file: file, size: size, isLarge: isLarge)
            let bytes = PhotoBody.bytes(of: photo, seed: 1)
            let expected = try #require(ImageHeader.pixelSize(of: bytes), "\(size) bytes: no image")
            let output = try Self.run(djpeg, input: bytes)
            #expect(output.status == 0 && output.errors.isEmpty, "\(file), \(size) bytes: \(output.errors)")
            // djpeg writes a PPM: "P6\nW H\n255\n" and then the pixels.
            let header = String(decoding: output.image.prefix(20), as: UTF8.self).split(whereSeparator: \.isWhitespace)
            #expect(header.count >= 3 && header[1] == "\(expected.width)" && header[2] == "\(expected.height)")
        }
    }

    static func run(_ tool: String, input: [UInt8]) throws -> (status: Int32, image: Data, errors: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).jpg")
        try Data(input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [file.path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let image = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, image, errors)
    }
}
