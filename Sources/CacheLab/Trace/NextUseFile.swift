#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each request's next use (as `Trace.nextUses` numbers it), computed without holding the trace:
/// for Belady and `--vs-opt` on a trace whose file does not carry next uses.
///
/// 1. A forward pass writes every request's key to a temporary file (8 bytes a request).
/// 2. A backward pass reads that file from its end, a block at a time, keeping each distinct
///    key's last position seen (about 40 bytes of memory per distinct object), and writes the
///    next uses to a second temporary file (8 bytes a request), in place.
/// 3. The replay reads them with the requests, a chunk at a time (`fill`).
///
/// Both files are unlinked as soon as they are made, so nothing is left behind, whatever stops
/// the run. Their directory is `$TMPDIR`, else `/tmp`.
final class NextUseFile: Sendable {
    /// Requests the file covers.
    let count: Int
    private let descriptor: Int32
    private let directory: String

    private init(descriptor: Int32, count: Int, directory: String) {
        self.descriptor = descriptor
        self.count = count
        self.directory = directory
    }

    deinit { close(descriptor) }

    /// Reads the trace once and computes its next uses.
    ///
    /// - Parameter progress: called after each chunk of the forward pass with requests read.
    static func build(
        from source: TraceSource, chunkCapacity: Int,
        progress: ((_ requests: Int, _ stream: any RequestStream) -> Void)?
    ) throws(TraceError) -> NextUseFile {
        let directory = temporaryDirectory()
        let keys = try makeTemporary(in: directory, purpose: "keys")
        defer { close(keys) }
        // 1. Forward: every key, in order.
        let stream = try source.open()
        var chunk = RequestChunk(capacity: chunkCapacity)
        var count = 0
        while try stream.next(into: &chunk) {
            try chunk.withBatch { batch throws(TraceError) in
                try write(UnsafeRawBufferPointer(batch.keys), to: keys, at: count * 8, in: directory)
            }
            count += chunk.count
            progress?(count, stream)
        }
        // 2. Backward: a block of keys at a time, each key's last position seen so far.
        let uses = try makeTemporary(in: directory, purpose: "next uses")
        let file = NextUseFile(descriptor: uses, count: count, directory: directory)
        let block = 1 << 16
        let keyBlock = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: block)
        let useBlock = UnsafeMutableBufferPointer<Int64>.allocate(capacity: block)
        defer {
            keyBlock.deallocate()
            useBlock.deallocate()
        }
        var pass = NextUsePass(denseKeys: nil)
        var end = count
        while end > 0 {
            let start = max(0, end - block)
            let length = end - start
            try read(
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(keyBlock)[..<(length * 8)]),
                from: keys, at: start * 8, in: directory)
            pass.backward(
                keys: UnsafeBufferPointer(rebasing: keyBlock[..<length]), start: start,
                into: UnsafeMutableBufferPointer(rebasing: useBlock[..<length]))
            try write(
                UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(useBlock)[..<(length * 8)]), to: uses,
                at: start * 8, in: directory)
            end = start
        }
        return file
    }

    /// Fills `chunk`'s next uses from the file: the chunk's requests must be the ones the file
    /// was built from, at the same positions (`trace` names them if they are not).
    func fill(_ chunk: inout RequestChunk, trace: String) throws(TraceError) {
        let start = chunk.start
        guard start + chunk.count <= count else {
            throw .unreadable(
                file: trace, reason: "it changed while being read: a second read gave more than its \(count) requests")
        }
        let descriptor = descriptor
        let directory = directory
        try chunk.setNextUses { uses throws(TraceError) in
            try NextUseFile.read(UnsafeMutableRawBufferPointer(uses), from: descriptor, at: start * 8, in: directory)
        }
    }

    // MARK: Files

    private static func temporaryDirectory() -> String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    /// A new file in `directory`, already unlinked: it goes when its descriptor is closed.
    private static func makeTemporary(in directory: String, purpose: String) throws(TraceError) -> Int32 {
        var template = Array((directory + "/cachelab-next-uses-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw .unwritable(
                file: directory, reason: "cannot make a temporary file for the \(purpose): \(TraceReader.systemError())"
            )
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }

    private static func write(
        _ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int, in directory: String
    ) throws(TraceError) {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if written < 0 {
                if errno == EINTR { continue }
                throw .unwritable(
                    file: directory, reason: "cannot write the temporary next-use file: \(TraceReader.systemError())")
            }
            done += written
        }
    }

    private static func read(
        _ bytes: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: Int, in directory: String
    ) throws(TraceError) {
        var done = 0
        while done < bytes.count {
            let count = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw .unreadable(
                    file: directory,
                    reason: "cannot read the temporary next-use file: "
                        + (count == 0 ? "it ends early" : TraceReader.systemError()))
            }
            done += count
        }
    }
}
