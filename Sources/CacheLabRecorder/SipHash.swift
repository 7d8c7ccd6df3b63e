/// SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012): a keyed hash
/// whose outputs cannot be predicted, or matched to guessed inputs, without the 128-bit key.
/// The recorder keys it with a recording's secret salt, so a hashed URL in a trace reveals
/// nothing to whoever reads the trace, while the same URL always gets the same key.
///
/// - Complexity: O(n) in the input's length, no allocation.
struct SipHash24 {
    let k0: UInt64
    let k1: UInt64

    func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1

        @inline(__always)
        func round() {
            v0 &+= v1
            v1 = v1.rotatedLeft(13) ^ v0
            v0 = v0.rotatedLeft(32)
            v2 &+= v3
            v3 = v3.rotatedLeft(16) ^ v2
            v0 &+= v3
            v3 = v3.rotatedLeft(21) ^ v0
            v2 &+= v1
            v1 = v1.rotatedLeft(17) ^ v2
            v2 = v2.rotatedLeft(32)
        }

        let count = bytes.count
        var offset = 0
        while offset + 8 <= count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            v3 ^= word
            round()
            round()
            v0 ^= word
            offset += 8
        }
        // The last 0-7 bytes, little-endian, with the length's low byte on top.
        var last = UInt64(truncatingIfNeeded: count) << 56
        for index in offset..<count {
            last |= UInt64(bytes[index]) << (8 * UInt64(index - offset))
        }
        v3 ^= last
        round()
        round()
        v0 ^= last
        v2 ^= 0xff
        round()
        round()
        round()
        round()
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
