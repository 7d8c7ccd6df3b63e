import CZstd

/// zstd compression in front of another sink (`.zst`), streamed with `ZSTD_compressStream2`, on
/// as many threads as the machine has cores when libzstd was built with them.
final class ZstdSink: ByteSink {
    private let inner: any ByteSink
    private let name: String
    private let context: OpaquePointer
    private let output: UnsafeMutableRawBufferPointer

    /// - Parameter level: zstd's compression level (3, its default, compresses traces about 3×
    ///   at hundreds of MB/s).
    init(_ inner: any ByteSink, name: String, level: Int32 = 3) throws(TraceError) {
        self.inner = inner
        self.name = name
        guard let context = ZSTD_createCCtx() else {
            throw .unwritable(file: name, reason: "libzstd could not make a compressor")
        }
        self.context = context
        _ = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        // A checksum per frame, as the zstd command writes: corruption is found, not decoded.
        _ = ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        // Refused (and ignored) by a libzstd built without threads.
        _ = ZSTD_CCtx_setParameter(context, ZSTD_c_nbWorkers, Int32(max(System.activeProcessors, 1)))
        output = .allocate(byteCount: ZSTD_CStreamOutSize(), alignment: 16)
    }

    deinit {
        ZSTD_freeCCtx(context)
        output.deallocate()
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        var input = ZSTD_inBuffer(src: bytes.baseAddress, size: bytes.count, pos: 0)
        while input.pos < input.size {
            _ = try compress(&input, ZSTD_e_continue)
        }
    }

    func finish() throws(TraceError) {
        var input = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
        while try compress(&input, ZSTD_e_end) != 0 {}
        try inner.finish()
    }

    /// One call of the compressor; passes on what it produced and returns what it still holds.
    private func compress(_ input: inout ZSTD_inBuffer, _ directive: ZSTD_EndDirective) throws(TraceError) -> Int {
        var out = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let remaining = ZSTD_compressStream2(context, &out, &input, directive)
        guard ZSTD_isError(remaining) == 0 else {
            throw .unwritable(file: name, reason: "zstd: " + String(cString: ZSTD_getErrorName(remaining)))
        }
        if out.pos > 0 { try inner.write(UnsafeRawBufferPointer(rebasing: output[..<out.pos])) }
        return remaining
    }
}
