/// An image's pixel size read from its own header, without decoding it: a JPEG's frame (SOF)
/// segment, a PNG's IHDR chunk, a GIF's logical screen, a WebP's VP8, VP8L or VP8X chunk.
///
/// What a memory tier that costs decoded bitmaps needs when the app does not say the size: the
/// bitmap a decoder will make is width × height × 4 bytes.
public enum ImageHeader {
    /// The pixel size `bytes` declare, or nil when they are no image of a known format or their
    /// header is cut short.
    public static func pixelSize(of bytes: [UInt8]) -> PixelSize? {
        let size: (width: Int, height: Int)? =
            if bytes.starts(with: [0xFF, 0xD8]) {
                jpeg(bytes)
            } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), bytes.count >= 24 {
                (bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4))
            } else if bytes.starts(with: Array("GIF".utf8)), bytes.count >= 10 {
                (littleEndian(bytes, 6, 2), littleEndian(bytes, 8, 2))
            } else if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 30,
                bytes[8..<12].elementsEqual("WEBP".utf8)
            {
                webp(bytes)
            } else {
                nil
            }
        guard let size, (1...PixelSize.largestSide).contains(size.width),
            (1...PixelSize.largestSide).contains(size.height)
        else { return nil }
        return PixelSize(width: size.width, height: size.height)
    }

    // Walks the segments from SOI to the first start-of-frame (C0 to CF but for C4 DHT, C8 JPG and
    // CC DAC), skipping fill bytes; stops at the scan.
    private static func jpeg(_ bytes: [UInt8]) -> (Int, Int)? {
        var index = 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            index += 2
            // Markers without a length: TEM and RST0-7.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard marker != 0xDA, marker != 0xD9, index + 2 <= bytes.count else { return nil }
            let length = bigEndian(bytes, index, 2)
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 7, index + 7 <= bytes.count else { return nil }
                return (bigEndian(bytes, index + 5, 2), bigEndian(bytes, index + 3, 2))
            }
            guard length >= 2 else { return nil }
            index += length
        }
        return nil
    }

    // The first chunk after the RIFF header: lossy (VP8), lossless (VP8L) or extended (VP8X).
    private static func webp(_ bytes: [UInt8]) -> (Int, Int)? {
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ":
            // The key frame's start code, then 14-bit width and height.
            guard bytes[23..<26].elementsEqual([0x9D, 0x01, 0x2A]) else { return nil }
            return (littleEndian(bytes, 26, 2) & 0x3FFF, littleEndian(bytes, 28, 2) & 0x3FFF)
        case "VP8L":
            guard bytes[20] == 0x2F else { return nil }
            let bits = littleEndian(bytes, 21, 4)
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        case "VP8X":
            return (littleEndian(bytes, 24, 3) + 1, littleEndian(bytes, 27, 3) + 1)
        default:
            return nil
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int {
        bytes[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int {
        bytes[start..<start + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
