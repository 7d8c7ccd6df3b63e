import CacheLab
import ClientModel

/// The bytes a photo is served as: a real JPEG of the photo's pixel size (`FlatJPEG`, one colour
/// drawn from a generator seeded by the server's seed and the photo's path), padded with comment
/// segments of filler to exactly `photo.size` bytes. The same seed gives the same bytes in every
/// process.
///
/// A photo too small for its pixel size is drawn smaller, halving each side until it fits (a
/// 150×150 photo needs about 450 bytes, a 700×700 one about 6,000, a 9×9 one about 190, the colour
/// moving each by a few); one too small for any is no image, only the JPEG's header, filler and
/// end marker. The catalog's photos (8 to 14 KB small, 60 to 140 KB large) are always whole.
///
/// Neither the filler nor anything else holds FF D9 but the end marker, so a client can tell a
/// body cut short by its last two bytes, whatever its length.
enum PhotoBody {
    static let endMarker: [UInt8] = [0xFF, 0xD9]
    /// The smallest photo: the header and the end marker.
    static let minimumSize = FlatJPEG.header.count + endMarker.count

    static func bytes(of photo: FixtureCatalog.Photo, seed: UInt64) -> [UInt8] {
        precondition(photo.size >= minimumSize, "a photo is at least 22 bytes")
        var random = SplitMix64(seed: StableHash.fnv1a("\(photo.folder)/\(photo.file)", seed: seed))
        // A colour: each of Y, Cb and Cr's DC values in -40...40.
        let dc = (0..<3).map { _ in Int(random.next() % 81) - 40 }
        var side = (width: photo.pixels.width, height: photo.pixels.height)
        while side.width >= 8, side.height >= 8 {
            let image = FlatJPEG(width: side.width, height: side.height, dc: (dc[0], dc[1], dc[2]))
            if let bytes = image.bytes(paddedTo: photo.size, filler: { fill(&$0, count: $1, from: &random) }) {
                return bytes
            }
            side = (side.width / 2, side.height / 2)
        }
        var bytes = FlatJPEG.header
        fill(&bytes, count: photo.size - minimumSize, from: &random)
        return bytes + endMarker
    }

    // Appends `count` bytes drawn from `random`, none of them FF.
    private static func fill(_ bytes: inout [UInt8], count: Int, from random: inout SplitMix64) {
        bytes.reserveCapacity(bytes.count + count)
        var left = count
        while left > 0 {
            var word = random.next()
            for _ in 0..<min(8, left) {
                let byte = UInt8(truncatingIfNeeded: word)
                bytes.append(byte == 0xFF ? 0xFE : byte)
                word >>= 8
            }
            left -= min(8, left)
        }
    }
}
