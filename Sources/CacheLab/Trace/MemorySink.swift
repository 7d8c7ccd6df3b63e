/// Bytes kept in memory.
final class MemorySink: ByteSink {
    private(set) var bytes: [UInt8] = []

    func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) { self.bytes.append(contentsOf: bytes) }
    func finish() throws(TraceError) {}
}
