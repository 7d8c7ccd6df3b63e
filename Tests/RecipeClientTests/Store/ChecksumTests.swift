import Testing

@testable import RecipeClient

@Suite("Checksum")
struct ChecksumTests {
    /// `count` bytes `(i * 31 + 7) mod 256`.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    static func xxh64(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { Checksum.xxh64($0) }
    }

    // Reference values from the Python package `xxhash` (xxhash.xxh64(data, seed=0)), at every
    // length that takes a different path: no stripe, the tail's words, half-word and bytes, and
    // one, two and many 32-byte stripes.
    @Test(
        arguments: [
            (0, 0xef46_db37_51d8_e999), (1, 0xa96c_7f0c_e858_bbb7), (3, 0x56e6_9576_32a4_87f9),
            (4, 0xc60d_15b1_e3ff_8f04), (7, 0xafbe_fc3d_6c6f_9a8e), (8, 0x3da5_c7aa_2696_83e0),
            (12, 0x8fe8_ab1c_1fd0_666e), (15, 0xae2a_37eb_9357_caa7), (16, 0xa19a_d429_b02b_c413),
            (31, 0x4a74_f3a1_a39a_d4a1), (32, 0x8d57_d6a4_671c_c43d), (33, 0x62c9_fd21_ed85_7664),
            (36, 0xa447_5c60_6b0a_bc3c), (39, 0x1789_5424_89e5_9cc4),
        ] as [(Int, UInt64)])
    func isXXH64(count: Int, expected: UInt64) {
        #expect(Self.xxh64(Self.pattern(count)) == expected)
    }

    // Reference values from `xxhash.xxh64(data, seed=0x123456789abcdef0)`: the seed enters the four
    // lanes and the short path alike.
    @Test(
        arguments: [
            (0, 0x7fef_5b0c_3167_77ed), (3, 0x2576_77d3_5b1f_af7f), (8, 0xa591_81f1_9d10_d83d),
            (33, 0xc360_86e7_0eda_f8c4), (100, 0xb54e_c29e_0056_c27e),
        ] as [(Int, UInt64)])
    func isXXH64WithASeed(count: Int, expected: UInt64) {
        let hash = Self.pattern(count).withUnsafeBytes { Checksum.xxh64($0, seed: 0x1234_5678_9abc_def0) }
        #expect(hash == expected)
    }

    @Test func anImagesChecksumHoldsOnlyForTheKeyItWasStoredUnder() {
        let bytes = Self.pattern(1_000)
        let stored = Checksum.stored(bytes, key: "https://recipes.example/photos/a/large.jpg")
        #expect(stored == Checksum.stored(bytes, key: "https://recipes.example/photos/a/large.jpg"))
        #expect(stored != Checksum.stored(bytes, key: "https://recipes.example/photos/b/large.jpg"))
        #expect(stored != Checksum.stored(bytes))
    }

    @Test func isXXH64OfALargeBody() {
        // 100,003 bytes `(i * 7 + 3) mod 256`: 3,125 stripes and a tail of three bytes.
        let bytes = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        #expect(Self.xxh64(bytes) == 0x924a_64f3_ae9e_a839)
        #expect(Checksum.stored(bytes) == Int64(bitPattern: 0x924a_64f3_ae9e_a839))
    }

    @Test func changesWithEveryFlippedBit() {
        // Every single-bit flip of a 100-byte body changes its checksum.
        let bytes = StoreFixtures.image(7)
        let original = Self.xxh64(bytes)
        for index in bytes.indices {
            for bit in 0..<8 {
                var flipped = bytes
                flipped[index] ^= 1 << bit
                #expect(Self.xxh64(flipped) != original, "byte \(index), bit \(bit)")
            }
        }
    }

    @Test func legacyChecksumIsFNV1a64() {
        // Reference values of 64-bit FNV-1a, the checksum schema 3 stored.
        func fnv(_ text: String) -> UInt64 { Array(text.utf8).withUnsafeBytes { Checksum.legacyFNV1a($0) } }
        #expect(fnv("") == 0xcbf2_9ce4_8422_2325)
        #expect(fnv("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(fnv("foobar") == 0x8594_4171_f739_67e8)
    }
}
