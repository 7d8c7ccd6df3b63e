#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

/// A file read with `read(2)`, its descriptor closed when the source goes.
final class FileBytes: ByteSource {
    let file: String
    private let descriptor: Int32
    private(set) var consumed = 0
    let total: Int?

    init(path: String) throws(TraceError) {
        file = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unreadable(file: path, reason: TraceReader.systemError())
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = TraceReader.systemError()
            close(descriptor)
            throw .unreadable(file: path, reason: reason)
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            throw .unreadable(file: path, reason: "it is a directory")
        }
        // A pipe or a device has no size worth reporting.
        total = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    deinit { close(descriptor) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TraceError) -> Int {
        guard !buffer.isEmpty else { return 0 }
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 {
                consumed += count
                return count
            }
            if errno != EINTR { throw .unreadable(file: file, reason: TraceReader.systemError()) }
        }
    }
}

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

// `read` is also the name of methods here; call the system's under another name.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
