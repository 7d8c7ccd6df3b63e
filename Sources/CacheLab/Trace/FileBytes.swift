#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

// `read` is also the name of methods here; call the system's under another name.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
