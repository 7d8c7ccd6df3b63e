import CacheLab
import ClientModel

/// The bytes a photo is served as: a JPEG/JFIF header, filler drawn from a generator seeded by the
/// server's seed and the photo's path, and the JPEG end marker, exactly `photo.size` bytes long.
/// The same seed gives the same bytes in every process.
///
/// The filler has no FF byte (a real JPEG escapes FF in its entropy-coded data), so the end marker
/// FF D9 occurs only at the very end: a client can tell a body cut short, whatever its length.
enum PhotoBody {
    // SOI, then an APP0 "JFIF" segment: version 1.1, no density units, 1x1, no thumbnail.
    static let header: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
        0x00, 0x00,
    ]
    static let endMarker: [UInt8] = [0xFF, 0xD9]
    /// The smallest photo: the header and the end marker.
    static let minimumSize = header.count + endMarker.count

    static func bytes(of photo: FixtureCatalog.Photo, seed: UInt64) -> [UInt8] {
        precondition(photo.size >= minimumSize, "a photo is at least 22 bytes")
        var random = SplitMix64(seed: StableHash.fnv1a("\(photo.folder)/\(photo.file)", seed: seed))
        let fillerEnd = photo.size - endMarker.count
        // Written in place: the server renders every photo it is first asked for, megabytes for
        // a live replay's trace.
        return [UInt8](unsafeUninitializedCapacity: photo.size) { buffer, count in
            for (index, byte) in header.enumerated() { buffer[index] = byte }
            var index = header.count
            while index < fillerEnd {
                var word = random.next()
                for _ in 0..<min(8, fillerEnd - index) {
                    let byte = UInt8(truncatingIfNeeded: word)
                    buffer[index] = byte == 0xFF ? 0xFE : byte
                    word >>= 8
                    index += 1
                }
            }
            for (offset, byte) in endMarker.enumerated() { buffer[fillerEnd + offset] = byte }
            count = photo.size
        }
    }
}
