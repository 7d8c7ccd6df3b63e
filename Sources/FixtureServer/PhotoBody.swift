import CacheLab

/// The bytes a photo is served as: a JPEG/JFIF header, filler drawn from a generator seeded by the
/// server's seed and the photo's path, and the JPEG end marker, exactly `photo.size` bytes long.
/// The same seed gives the same bytes in every process.
enum PhotoBody {
    // SOI, then an APP0 "JFIF" segment: version 1.1, no density units, 1x1, no thumbnail.
    static let header: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
        0x00, 0x00,
    ]
    static let endMarker: [UInt8] = [0xFF, 0xD9]

    static func bytes(of photo: FixtureCatalog.Photo, seed: UInt64) -> [UInt8] {
        precondition(photo.size >= header.count + endMarker.count, "a photo is at least 22 bytes")
        var random = SplitMix64(seed: StableHash.fnv1a("\(photo.folder)/\(photo.file)", seed: seed))
        var bytes = header
        bytes.reserveCapacity(photo.size)
        let fillerEnd = photo.size - endMarker.count
        while bytes.count < fillerEnd {
            var word = random.next()
            for _ in 0..<min(8, fillerEnd - bytes.count) {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return bytes + endMarker
    }
}
