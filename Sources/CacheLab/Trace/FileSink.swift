#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written whole or not at all: bytes go to a hidden temporary file beside it
/// (`.NAME.tmp-HOST-PID`), which `finish` renames over the path; a sink dropped unfinished (an error, a
/// throw anywhere) removes it. So a failed or killed write never leaves a partial trace.
final class FileSink: ByteSink {
    let path: String
    private let temporary: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var finished = false

    init(path: String) throws(TraceError) {
        self.path = path
        temporary = FileSink.temporaryPath(for: path)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .unwritable(file: path, reason: TraceReader.systemError())
        }
        buffer.reserveCapacity(1 << 20)
    }

    deinit {
        guard !finished else { return }
        close(descriptor)
        unlink(temporary)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        if buffer.count + bytes.count > buffer.capacity { try flush() }
        if bytes.count >= buffer.capacity {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    func finish() throws(TraceError) {
        try flush()
        guard fsync(descriptor) == 0 else { throw .unwritable(file: path, reason: TraceReader.systemError()) }
        close(descriptor)
        finished = true
        guard rename(temporary, path) == 0 else {
            let reason = TraceReader.systemError()
            unlink(temporary)
            throw .unwritable(file: path, reason: reason)
        }
    }

    private func flush() throws(TraceError) {
        guard !buffer.isEmpty else { return }
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        try pending.withUnsafeBufferPointer { bytes throws(TraceError) in try writeAll(UnsafeRawBufferPointer(bytes)) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .unwritable(file: path, reason: TraceReader.systemError())
            }
            offset += written
        }
    }

    /// `dir/.name.tmp-HOST-PID` for `dir/name`: hidden, in the same folder (so the rename is
    /// atomic), and apart from any other process's, on this machine or another sharing the folder.
    static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(folder).\(name).tmp-\(hostName)-\(getpid())"
    }

    private static let hostName: String = {
        var bytes = [CChar](repeating: 0, count: 256)
        guard gethostname(&bytes, bytes.count - 1) == 0 else { return "host" }
        let name = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "host" : String(name.map { $0 == "/" ? "-" : $0 })
    }()
}

// `write` is also the name of methods here; call the system's under another name.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
