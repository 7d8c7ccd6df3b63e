/// A trace read front to back, a chunk at a time, holding nothing of it but the chunk being
/// filled (and, for string keys, each distinct key once).
///
/// Every reader of a trace file is one (`TraceReader.open`), and so are a trace held in memory
/// (`TraceArrayStream`) and the generators (`ZipfStream`). A stream is used by one thread at a
/// time.
public protocol RequestStream: AnyObject {
    /// The trace's name: the file as given, or the generator's.
    var name: String { get }

    /// Fills `chunk`, emptied first, with the next requests (up to its capacity) and the events
    /// among them. Returns false, the chunk empty, once the trace is over.
    ///
    /// - Throws: `TraceError` naming the file and the line, record or compressed byte where the
    ///   trace is malformed; then the stream is over.
    func next(into chunk: inout RequestChunk) throws(TraceError) -> Bool

    /// Whether the stream fills each request's next use into a chunk that has room for it:
    /// libCacheSim's `oracleGeneral` files carry it.
    var carriesNextUses: Bool { get }

    /// For string keys (cachelab's format), the string of every id read so far; else `nil`.
    var keyNames: [String]? { get }

    /// For string keys, the string of one id read so far; else `nil` (ids are the keys).
    func keyName(for id: UInt64) -> String?

    /// Whether app events may come (cachelab's format with an `event` column, a trace in memory
    /// that has some): a writer of cachelab's format then keeps the column.
    var mayHaveEvents: Bool { get }

    /// Whether requests may come with pixel sizes (cachelab's format with `width` and `height`
    /// columns, a trace in memory that has them): a writer of cachelab's format keeps the columns.
    var mayHavePixelSizes: Bool { get }

    /// How much of the file has been consumed and how big it is (compressed bytes for a `.zst`
    /// file; requests for a trace in memory), for progress.
    var progress: (done: Int, total: Int?) { get }
}

extension RequestStream {
    public var carriesNextUses: Bool { false }
    public var keyNames: [String]? { nil }
    public func keyName(for id: UInt64) -> String? { nil }
    public var mayHaveEvents: Bool { false }
    public var mayHavePixelSizes: Bool { false }

    /// Reads the rest of the stream into a `Trace` in memory (for traces that fit, and for the
    /// live replay, which needs each key's object).
    public func readAll(chunkCapacity: Int = RequestChunk.defaultCapacity) throws(TraceError) -> Trace {
        var trace = Trace(name: name)
        var chunk = RequestChunk(capacity: chunkCapacity)
        while try next(into: &chunk) {
            chunk.withBatch { batch in trace.append(batch) }
        }
        trace.nameKeys(keyNames)
        return trace
    }
}
