/// The bytes of a trace, front to back, a block at a time: a file, its zstd decompression, or
/// bytes held in memory. Readers parse from it without ever holding the whole file.
///
/// A source is used by one thread at a time (the thread reading the trace).
protocol ByteSource: AnyObject {
    /// The name errors give: the path as the user gave it.
    var file: String { get }
    /// Copies up to `buffer.count` bytes into `buffer` and returns how many; 0 means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TraceError) -> Int
    /// Bytes of the file consumed so far (compressed bytes for a `.zst` file): progress.
    var consumed: Int { get }
    /// The file's size in bytes (compressed for a `.zst` file), when known.
    var total: Int? { get }
}
