/// Bytes already in memory (a test's, a fuzzer's, a recording part's).
final class MemoryBytes: ByteSource {
    let file: String
    private let bytes: [UInt8]
    private(set) var consumed = 0
    var total: Int? { bytes.count }

    init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        file = name
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TraceError) -> Int {
        let count = min(buffer.count, bytes.count - consumed)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + consumed, byteCount: count)
        }
        consumed += count
        return count
    }
}
