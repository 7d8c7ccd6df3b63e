// libCacheSim's binary `oracleGeneral` format.

extension TraceReader {
    /// The size of one `oracleGeneral` record:
    /// `u32 time, u64 obj_id, u32 size, i64 next_access_vtime`, little-endian, unpadded.
    static let oracleGeneralRecordSize = 24

    /// Reads libCacheSim's `oracleGeneral` binary: times in seconds become milliseconds, records
    /// of size 0 are dropped, and `next_access_vtime` is not kept.
    static func readOracleGeneral(_ bytes: [UInt8], file: String) throws(TraceError) -> Trace {
        let recordSize = oracleGeneralRecordSize
        guard !bytes.isEmpty else {
            throw .empty(file: file)
        }
        let records = bytes.count / recordSize
        let leftover = bytes.count % recordSize
        guard leftover == 0 else {
            throw .truncatedRecord(file: file, record: records, bytes: leftover, recordSize: recordSize)
        }
        var trace = Trace(name: file)
        trace.reserveCapacity(records)
        bytes.withUnsafeBytes { raw in
            for record in 0..<records {
                let offset = record * recordSize
                let seconds = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let id = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt64.self))
                let size = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                // libCacheSim's reader skips requests of size 0.
                if size > 0 {
                    trace.append(time: Int64(seconds) * 1000, key: id, size: Int(size))
                }
            }
        }
        guard trace.count > 0 else {
            throw .empty(file: file)
        }
        return trace
    }
}
