/// What a client's memory tier charges for an image against its capacity.
///
/// Image libraries keep decoded bitmaps in memory and cost them by their pixels (Nuke,
/// Kingfisher, SDWebImage; Glide, Coil, Fresco): a 150×150 thumbnail of 10 KB costs 90 KB, a
/// 700×700 photo of 96 KB costs 1.96 MB. A disk tier always costs the encoded bytes.
public enum MemoryCost: String, Sendable, CaseIterable, Equatable, Codable {
    /// width × height × 4 where the trace gives the image's pixels, else its encoded bytes.
    case decoded
    /// The encoded bytes, as downloaded.
    case encoded

    /// The bytes an image of encoded `size` and `pixels` (packed `PixelSize`, 0 for unknown)
    /// costs in memory.
    @inline(__always)
    @inlinable public func bytes(size: Int, pixels: UInt32) -> Int {
        self == .decoded ? PixelSize.decodedBytes(packed: pixels, orEncoded: size) : size
    }
}
