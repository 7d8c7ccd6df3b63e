/// Why a trace could not be read or written. Every case names the file and, where there is one,
/// the line (text formats) or the record (binary formats), both counted from 1, or the compressed
/// byte (`.zst` files, counted from 0 as offsets are).
public enum TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(file: String, reason: String)
    /// The file holds no request at all.
    case empty(file: String)
    /// A text line could not be understood.
    case malformedLine(file: String, line: Int, reason: String)
    /// A binary file ended in the middle of a record.
    case truncatedRecord(file: String, record: Int, bytes: Int, recordSize: Int)
    /// A binary record holds an impossible value.
    case malformedRecord(file: String, record: Int, reason: String)
    /// The reader was configured wrongly (for example a bad column spec).
    case invalidOptions(String)
    /// A trace could not be written: the file could not be, or the format cannot hold the trace.
    case unwritable(file: String, reason: String)
    /// A `.zst` file could not be decompressed: not zstd, a corrupt frame, or cut short.
    /// `byteOffset` is the compressed byte where decoding stopped (for a corrupt block, the first
    /// byte of the input zstd failed on: the damage is at or after it); `requestsRead` how many
    /// requests were read whole before it, when known.
    case brokenCompression(file: String, byteOffset: Int, requestsRead: Int?, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "\(file): cannot read the trace: \(reason)"
        case .empty(let file):
            "\(file): the trace holds no request"
        case .malformedLine(let file, let line, let reason):
            "\(file):\(line): \(reason)"
        case .truncatedRecord(let file, let record, let bytes, let recordSize):
            "\(file): record \(record) is truncated: \(bytes) of \(recordSize) bytes"
        case .malformedRecord(let file, let record, let reason):
            "\(file): record \(record): \(reason)"
        case .invalidOptions(let reason):
            reason
        case .unwritable(let file, let reason):
            "\(file): cannot write it: \(reason)"
        case .brokenCompression(let file, let offset, let requests, let reason):
            "\(file): compressed byte \(offset)"
                + (requests.map { ", after request \($0)" } ?? "") + ": \(reason)"
        }
    }
}
