/// Recognises a whole image by its first and last bytes, as a decoder would notice a cut: a JPEG
/// starts with SOI (FF D8) and ends with EOI (FF D9), a PNG ends with its IEND chunk, a GIF with
/// its trailer (3B), a WebP's RIFF header gives its exact length.
///
/// A body cut short almost never passes: a JPEG's entropy-coded data escapes every FF byte, so
/// FF D9 occurs only at the real end. It is the last line of defence after the status and
/// `Content-Length` checks, for a server that announces a wrong length.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let pngEnd: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// The format of `bytes` if they are a whole image of a known format, else `nil`.
    public static func whole(_ bytes: [UInt8]) -> ImageFormat? {
        let count = bytes.count
        if count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[count - 2] == 0xFF, bytes[count - 1] == 0xD9 {
            return .jpeg
        }
        if count >= 16, bytes.starts(with: pngSignature), bytes[(count - 8)...].elementsEqual(pngEnd) {
            return .png
        }
        if count >= 7, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46, bytes[count - 1] == 0x3B {
            return .gif
        }
        if count >= 12, bytes[0] == 0x52, bytes[1] == 0x49, bytes[2] == 0x46, bytes[3] == 0x46,
            bytes[8] == 0x57, bytes[9] == 0x45, bytes[10] == 0x42, bytes[11] == 0x50
        {
            let riffSize = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
            return riffSize + 8 == count ? .webp : nil
        }
        return nil
    }
}
