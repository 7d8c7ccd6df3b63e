/// An image's size in pixels, as a trace may give it for each request (cachelab's `width` and
/// `height` columns): what a memory tier that counts decoded bitmaps charges for the image.
///
/// Stored packed in 32 bits (`packed`): 16 for the width, 16 for the height, 0 for unknown, so a
/// trace carries it in one array beside the sizes. Each side is at most 65,535 pixels.
public struct PixelSize: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    /// The largest side a trace holds.
    public static let largestSide = Int(UInt16.max)
    /// Bytes per pixel of a decoded bitmap (RGBA, 8 bits per channel), as iOS and Android
    /// decode photos by default.
    public static let bytesPerPixel = 4

    /// - Precondition: both sides in `1...largestSide`.
    @inlinable public init(width: Int, height: Int) {
        precondition(
            (1...Self.largestSide).contains(width) && (1...Self.largestSide).contains(height),
            "a pixel size's sides are in 1...\(Self.largestSide)")
        self.width = width
        self.height = height
    }

    /// The size packed as a trace stores it, or nil when a side is 0 (unknown).
    @inlinable public init?(packed: UInt32) {
        guard packed >> 16 != 0, packed & 0xFFFF != 0 else { return nil }
        self.init(width: Int(packed >> 16), height: Int(packed & 0xFFFF))
    }

    /// `width << 16 | height`.
    @inlinable public var packed: UInt32 { UInt32(width) << 16 | UInt32(height) }

    /// Bytes of the decoded bitmap: width × height × 4.
    @inlinable public var decodedBytes: Int { width * height * Self.bytesPerPixel }

    /// The decoded bytes of a packed size, or `encoded` when a side is 0 (unknown).
    @inline(__always)
    @inlinable public static func decodedBytes(packed: UInt32, orEncoded encoded: Int) -> Int {
        let pixels = Int(packed >> 16) * Int(packed & 0xFFFF)
        return pixels == 0 ? encoded : pixels * bytesPerPixel
    }

    @inlinable public var description: String { "\(width)×\(height)" }
}
