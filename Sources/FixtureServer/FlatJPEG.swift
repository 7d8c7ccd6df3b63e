/// A baseline JPEG of one colour: a real image any decoder draws (a browser, libjpeg, ImageIO),
/// of any pixel size, padded to an exact byte count with comment segments.
///
/// Every 8×8 block of each component (Y, Cb, Cr, none subsampled) has the same DC value and no AC
/// coefficient, so after the first block each block costs two bits: a 1-bit "no change" DC code
/// and a 1-bit end-of-block. A 700×700 photo's entropy-coded data is 5.7 KB, a 150×150 one's
/// 271 bytes. The Huffman tables hold only the symbols used, and nothing in the headers, the
/// comments' filler or the (byte-stuffed) entropy data is FF D9, so the end marker occurs only
/// at the end: a body cut short is still told by its last two bytes.
struct FlatJPEG {
    let width: Int
    let height: Int
    /// The colour as quantised DC values of Y, Cb and Cr, each in -63...63 (0 is mid-grey, no tint).
    let dc: (y: Int, cb: Int, cr: Int)

    /// The JPEG without padding.
    var bytes: [UInt8] { tables + scanAndEnd }

    /// SOI, then an APP0 "JFIF" segment: version 1.1, no density units, 1×1, no thumbnail.
    static let header: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
        0x00, 0x00,
    ]

    /// Everything before the scan: the header, the quantisation table, the frame, the Huffman tables.
    var tables: [UInt8] {
        var out = Self.header
        // Quantisation table 0: every step 16.
        out += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 16, count: 64)
        // Start of frame, baseline: 8-bit samples, three components, no subsampling, table 0.
        out += [0xFF, 0xC0, 0x00, 0x11, 0x08] + Self.bigEndian(height) + Self.bigEndian(width)
        out += [0x03, 0x01, 0x11, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00]
        // DC table 0: category 0 is "0"; categories 1 to 11 are five bits, 10000 to 11010.
        out += [0xFF, 0xC4, 0x00, 0x1F, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0B] + [UInt8](repeating: 0, count: 11)
        out += (0...11).map { UInt8($0) }
        // AC table 0: only end-of-block, "0".
        out += [0xFF, 0xC4, 0x00, 0x14, 0x10, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        return out
    }

    /// The start-of-scan segment (the three components interleaved, each with tables 0), the
    /// entropy-coded data and the end marker.
    var scanAndEnd: [UInt8] {
        [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x00, 0x3F, 0x00] + scan() + [0xFF, 0xD9]
    }

    /// The JPEG padded to `size` bytes: comment segments before the scan, their contents written
    /// by `filler` (which must write no FF byte), or, for 1 to 3 bytes, fill bytes (FF) before the
    /// end marker, which every decoder skips. Nil when the image alone is longer than `size`.
    func bytes(paddedTo size: Int, filler: (inout [UInt8], Int) -> Void) -> [UInt8]? {
        let tables = tables
        let scan = scanAndEnd
        let padding = size - tables.count - scan.count
        guard padding >= 0 else { return nil }
        guard padding >= 4 else {
            return tables + scan.dropLast(2) + [UInt8](repeating: 0xFF, count: padding) + [0xFF, 0xD9]
        }
        var out = tables
        out.reserveCapacity(size)
        var left = padding
        while left > 0 {
            // A segment is 4 to 65,537 bytes (its marker, then a length counting itself); never
            // leave 1 to 3 bytes for the last one.
            var segment = min(left, 65_537)
            if (1...3).contains(left - segment) { segment = left - 4 }
            out += [0xFF, 0xFE] + Self.bigEndian(segment - 2)
            filler(&out, segment - 4)
            left -= segment
        }
        return out + scan
    }

    // The entropy-coded data: each MCU's Y, Cb and Cr blocks, the first of each carrying its DC
    // value, the rest "no change"; the last byte padded with 1 bits, every FF byte followed by 00.
    private func scan() -> [UInt8] {
        var writer = BitWriter()
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        for block in 0..<blocks {
            for component in 0..<3 {
                let value = component == 0 ? dc.y : component == 1 ? dc.cb : dc.cr
                if block == 0, value != 0 {
                    let category = Self.category(of: value)
                    writer.write(0b10000 + category - 1, bits: 5)
                    // JPEG's magnitude bits: the value, or for a negative one, its ones' complement.
                    let magnitude = value > 0 ? value : value + (1 << category) - 1
                    writer.write(magnitude, bits: category)
                } else {
                    writer.write(0, bits: 1)
                }
                writer.write(0, bits: 1)  // end of block
            }
        }
        return writer.finish()
    }

    private static func category(of value: Int) -> Int {
        var magnitude = abs(value)
        var bits = 0
        while magnitude > 0 {
            bits += 1
            magnitude >>= 1
        }
        return bits
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    // Bits most significant first, as JPEG writes them.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var current = 0
        var count = 0

        mutating func write(_ value: Int, bits: Int) {
            for shift in stride(from: bits - 1, through: 0, by: -1) {
                current = current << 1 | (value >> shift & 1)
                count += 1
                if count == 8 { flush() }
            }
        }

        mutating func finish() -> [UInt8] {
            while count != 0 {
                current = current << 1 | 1
                count += 1
                if count == 8 { flush() }
            }
            return bytes
        }

        private mutating func flush() {
            bytes.append(UInt8(current))
            if current == 0xFF { bytes.append(0x00) }
            current = 0
            count = 0
        }
    }
}
