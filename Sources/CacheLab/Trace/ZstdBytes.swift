import CZstd

/// The decompression of a zstd-compressed file (`.zst`), streamed: libzstd's `ZSTD_DStream`
/// decodes into the reader's buffer as it asks, so memory is the decoder's window, never the file.
///
/// Concatenated frames are read one after the other, as the `zstd` command writes them. A file
/// that is not zstd, a corrupt frame, or one cut short all throw `TraceError.brokenCompression`
/// naming the compressed byte where decoding stopped.
final class ZstdBytes: ByteSource {
    private let compressed: any ByteSource
    private let stream: OpaquePointer
    private let input: UnsafeMutableRawBufferPointer
    private var inputStart = 0
    private var inputEnd = 0
    private var ended = false
    private var sawInput = false
    /// What the last decoding call returned: 0 when a frame was complete and flushed.
    private var pending = 0
    /// Bytes decompressed so far.
    private(set) var produced = 0

    var file: String { compressed.file }
    var consumed: Int { compressed.consumed }
    var total: Int? { compressed.total }

    init(_ compressed: any ByteSource) throws(TraceError) {
        self.compressed = compressed
        guard let stream = ZSTD_createDStream() else {
            throw .unreadable(file: compressed.file, reason: "libzstd could not make a decoder")
        }
        self.stream = stream
        // Public traces are compressed with long windows (`zstd --long`); accept any window
        // libzstd can decode rather than refuse those over its default 128 MiB.
        _ = ZSTD_DCtx_setParameter(stream, ZSTD_d_windowLogMax, 31)
        input = .allocate(byteCount: ZSTD_DStreamInSize(), alignment: 16)
    }

    deinit {
        ZSTD_freeDStream(stream)
        input.deallocate()
    }

    /// The compressed byte the decoder has reached.
    private var compressedOffset: Int { compressed.consumed - (inputEnd - inputStart) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TraceError) -> Int {
        guard !buffer.isEmpty else { return 0 }
        var output = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
        while output.pos == 0 {
            if inputStart == inputEnd && !ended {
                let count = try compressed.read(into: input)
                if count == 0 {
                    ended = true
                } else {
                    inputStart = 0
                    inputEnd = count
                    sawInput = true
                }
            }
            if inputStart == inputEnd && ended {
                // An empty file holds no frame at all: the trace reader says it is empty.
                guard sawInput, pending != 0 else { return 0 }
                // The input is over but a frame is not: flush what the decoder holds, if anything.
                var none = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
                pending = try decode(&output, &none)
                if output.pos == 0 {
                    // Under a frame header's magic number, the bytes cannot be told apart from
                    // something that is not zstd at all.
                    let reason =
                        produced == 0 && compressed.consumed < 4
                        ? "the file holds \(compressed.consumed) bytes, too few for a zstd frame (not zstd, or truncated)"
                        : "the file ends inside a zstd frame (it is truncated)"
                    throw .brokenCompression(
                        file: file, byteOffset: compressedOffset, requestsRead: nil, reason: reason)
                }
                break
            }
            var window = ZSTD_inBuffer(
                src: UnsafeRawPointer(input.baseAddress! + inputStart), size: inputEnd - inputStart, pos: 0)
            pending = try decode(&output, &window)
            inputStart += window.pos
        }
        produced += output.pos
        return output.pos
    }

    private func decode(_ output: inout ZSTD_outBuffer, _ window: inout ZSTD_inBuffer) throws(TraceError) -> Int {
        let result = ZSTD_decompressStream(stream, &output, &window)
        guard ZSTD_isError(result) == 0 else {
            let offset = compressedOffset + window.pos
            if ZSTD_getErrorCode(result) == ZSTD_error_prefix_unknown && produced == 0 && output.pos == 0 {
                throw .brokenCompression(
                    file: file, byteOffset: offset, requestsRead: nil,
                    reason: "this is not zstd data (a .zst file must start with a zstd frame)")
            }
            // zstd leaves its input where the failing call began: the damage lies in the bytes
            // handed to that call, which is as near as it tells.
            throw .brokenCompression(
                file: file, byteOffset: offset, requestsRead: nil,
                reason: "corrupt zstd data in the \(window.size - window.pos) compressed bytes from there: "
                    + String(cString: ZSTD_getErrorName(result)))
        }
        return result
    }
}
