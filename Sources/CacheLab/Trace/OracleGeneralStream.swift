/// Reads libCacheSim's binary `oracleGeneral` format: 24-byte little-endian records
/// `u32 time, u64 obj_id, u32 size, i64 next_access_vtime`, unpadded. Times in seconds become
/// milliseconds; records of size 0 are dropped, as libCacheSim's reader drops them.
///
/// `next_access_vtime` is each request's next use, as libCacheSim's Belady reads it: the 1-based
/// index of the next record for the same object, or -1 for never. When a chunk has room for next
/// uses the stream fills them from it (-1 becomes `Int64.max`), and refuses a value that does not
/// lie after its own record: such a file carries no next uses. Made with `readsNextUses: false`
/// it leaves them to someone else (`NextUseFile`).
final class OracleGeneralStream: RequestStream {
    /// The size of one record.
    static let recordSize = 24

    private let source: any ByteSource
    private let buffer: UnsafeMutableRawBufferPointer
    /// Unparsed bytes are `buffer[head..<tail]`.
    private var head = 0
    private var tail = 0
    private var exhausted = false
    /// Records parsed so far, size 0 included (the index errors give).
    private var records = 0
    /// Requests handed out so far.
    private var produced = 0

    private let readsNextUses: Bool

    var name: String { source.file }
    var carriesNextUses: Bool { readsNextUses }
    var progress: (done: Int, total: Int?) { (source.consumed, source.total) }

    init(_ source: any ByteSource, readsNextUses: Bool = true, blockRecords: Int = 1 << 15) {
        self.source = source
        self.readsNextUses = readsNextUses
        buffer = .allocate(byteCount: Self.recordSize * max(blockRecords, 1), alignment: 16)
    }

    deinit { buffer.deallocate() }

    func next(into chunk: inout RequestChunk) throws(TraceError) -> Bool {
        let start = produced
        try chunk.fill(from: start) { writer throws(TraceError) in
            let wantsNextUses = writer.wantsNextUses && readsNextUses
            while !writer.isFull {
                if tail - head < Self.recordSize {
                    guard try refill(requestsRead: start + writer.count) else { break }
                    continue
                }
                let raw = UnsafeRawBufferPointer(buffer)
                // Parse the whole records in the buffer, up to the chunk's room.
                while tail - head >= Self.recordSize && !writer.isFull {
                    let offset = head
                    head += Self.recordSize
                    let record = records
                    records += 1
                    let size = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    // libCacheSim's reader skips requests of size 0.
                    guard size > 0 else { continue }
                    let seconds = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                    let id = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt64.self))
                    if wantsNextUses {
                        let next = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: Int64.self))
                        guard next < 0 || next > Int64(record) + 1 else {
                            throw .malformedRecord(
                                file: source.file, record: record + 1,
                                reason: "next_access_vtime \(next) does not lie after the record itself, so the "
                                    + "file carries no next uses (Belady and --vs-opt need them: give "
                                    + "--compute-next-uses)")
                        }
                        writer.append(
                            time: Int64(seconds) * 1000, key: id, size: Int(size), nextUse: next < 0 ? .max : next)
                    } else {
                        writer.append(time: Int64(seconds) * 1000, key: id, size: Int(size))
                    }
                }
            }
        }
        produced += chunk.count
        if chunk.count == 0 && exhausted && produced == 0 {
            throw .empty(file: source.file)
        }
        return chunk.count > 0
    }

    /// Reads more bytes after the unparsed ones; false at the end of the file. A file that ends
    /// inside a record is an error; a decompression error names `requestsRead`, the requests
    /// handed out before it (the current chunk's included).
    private func refill(requestsRead: Int) throws(TraceError) -> Bool {
        guard !exhausted else { return false }
        let leftover = tail - head
        if leftover > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + head, byteCount: leftover) }
        head = 0
        tail = leftover
        // Read until a whole record is there or the file ends.
        while tail < Self.recordSize {
            let count: Int
            do {
                count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[tail...]))
            } catch {
                throw error.afterRequests(requestsRead)
            }
            if count == 0 {
                exhausted = true
                guard tail == 0 else {
                    throw .truncatedRecord(
                        file: source.file, record: records + 1, bytes: tail, recordSize: Self.recordSize)
                }
                return false
            }
            tail += count
        }
        if records == 0, leftover == 0 { try refuseText() }
        return true
    }

    // A file whose first record is all printable text is another format read as this one (a
    // CSV given --trace-format oracle-general): say so, not that a record is truncated. A binary
    // record's small integers always hold zero bytes.
    private func refuseText() throws(TraceError) {
        let start = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<Self.recordSize])
        guard start.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            return
        }
        let line = String(decoding: start.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        throw .malformedRecord(
            file: source.file, record: 1,
            reason: "the file begins with text ('\(line)'), not oracleGeneral's 24-byte binary records; "
                + "give its format (--trace-format cachelab, csv or txt), or leave it to the file's name")
    }
}
