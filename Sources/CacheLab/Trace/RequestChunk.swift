/// A block of requests and the app events among them, as a trace reader hands them out: storage
/// for `capacity` requests, filled by a reader, replayed by every cell of a plan, then filled
/// again. Its arrays are allocated once, so a trace of any length is read through the same few
/// chunks.
///
/// A chunk is a value: the reader fills it while it holds the only copy, and replays read it
/// through `withBatch`. Copies shared between threads are only read.
public struct RequestChunk: Sendable {
    /// The most requests the chunk holds.
    public let capacity: Int
    /// The trace position of the first request.
    public private(set) var start = 0
    /// The requests it holds now.
    public private(set) var count = 0
    private var times: [Int64]
    private var keys: [UInt64]
    private var sizes: [Int]
    /// Each request's next use (see `Trace.nextUses`), when the chunk was made to carry them.
    private var nextUses: [Int64]
    /// Each request's pixel size, packed; meaningful only when `hasPixelSizes`.
    private var pixelSizes: [UInt32]
    /// Whether the reader gave this fill's requests pixel sizes (all of them, 0 where unknown).
    public private(set) var hasPixelSizes = false
    /// The events among the requests, in order, at absolute positions `start...start + count`.
    public private(set) var events: [TraceEvent] = []

    /// The number of requests a chunk holds by default: 32,768 (768 KiB of requests), a few
    /// hundredths of a second of replay, small enough to stay in a core's cache while every cell
    /// of a plan reads it.
    public static let defaultCapacity = 1 << 15

    /// Creates an empty chunk.
    ///
    /// - Parameters:
    ///   - capacity: the most requests it holds (at least 1).
    ///   - carriesNextUses: whether it has room for each request's next use.
    public init(capacity: Int = RequestChunk.defaultCapacity, carriesNextUses: Bool = false) {
        precondition(capacity >= 1, "a chunk holds at least one request")
        self.capacity = capacity
        times = Self.storage(capacity)
        keys = Self.storage(capacity)
        sizes = Self.storage(capacity)
        nextUses = carriesNextUses ? Self.storage(capacity) : []
        pixelSizes = Self.storage(capacity)
    }

    /// Room for `capacity` values, left as the allocator gives it: nothing reads a slot before a
    /// fill writes it (a batch lends only the first `count`), and pages never written are never
    /// touched, so a short trace does not pay for zeroing a whole chunk.
    private static func storage<Value: FixedWidthInteger>(_ capacity: Int) -> [Value] {
        Array(unsafeUninitializedCapacity: capacity) { _, initialized in initialized = capacity }
    }

    /// Whether the chunk has room for next uses.
    public var carriesNextUses: Bool { !nextUses.isEmpty }

    /// The most events a chunk takes before it is handed on, so that a file of events alone
    /// still streams.
    var eventCapacity: Int { max(capacity, 64) }

    /// Empties the chunk and fills it through `body`, whose writer appends requests and events
    /// from trace position `start` on.
    mutating func fill<Failure: Error>(
        from start: Int, _ body: (inout ChunkWriter) throws(Failure) -> Void
    ) throws(Failure) {
        self.start = start
        count = 0
        var taken: [TraceEvent] = []
        swap(&taken, &events)
        taken.removeAll(keepingCapacity: true)
        let capacity = capacity
        let eventCapacity = eventCapacity
        let carriesNextUses = carriesNextUses
        let (filled, written, pixels) = try times.withUnsafeMutableBufferPointer { times throws(Failure) in
            try keys.withUnsafeMutableBufferPointer { keys throws(Failure) in
                try sizes.withUnsafeMutableBufferPointer { sizes throws(Failure) in
                    try pixelSizes.withUnsafeMutableBufferPointer { pixelSizes throws(Failure) in
                        try nextUses.withUnsafeMutableBufferPointer { nextUses throws(Failure) in
                            var writer = ChunkWriter(
                                capacity: capacity, eventCapacity: eventCapacity, start: start,
                                times: times.baseAddress!, keys: keys.baseAddress!, sizes: sizes.baseAddress!,
                                pixelSizes: pixelSizes.baseAddress!,
                                // An empty array may still lend a base address: no room, no pointer.
                                nextUses: carriesNextUses ? nextUses.baseAddress : nil, events: taken)
                            try body(&writer)
                            return (writer.count, writer.events, writer.hasPixelSizes)
                        }
                    }
                }
            }
        }
        count = filled
        events = written
        hasPixelSizes = pixels
    }

    /// Lends the chunk's requests to `body` as a `RequestBatch`.
    public func withBatch<Result, Failure: Error>(
        _ body: (RequestBatch) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try times.withUnsafeBufferPointer { times throws(Failure) in
            try keys.withUnsafeBufferPointer { keys throws(Failure) in
                try sizes.withUnsafeBufferPointer { sizes throws(Failure) in
                    try pixelSizes.withUnsafeBufferPointer { pixelSizes throws(Failure) in
                        try nextUses.withUnsafeBufferPointer { nextUses throws(Failure) in
                            try events.withUnsafeBufferPointer { events throws(Failure) in
                                try body(
                                    RequestBatch(
                                        start: start,
                                        times: UnsafeBufferPointer(rebasing: times[..<count]),
                                        keys: UnsafeBufferPointer(rebasing: keys[..<count]),
                                        sizes: UnsafeBufferPointer(rebasing: sizes[..<count]),
                                        nextUses: nextUses.isEmpty
                                            ? UnsafeBufferPointer(start: nil, count: 0)
                                            : UnsafeBufferPointer(rebasing: nextUses[..<count]),
                                        events: events,
                                        pixelSizes: hasPixelSizes
                                            ? UnsafeBufferPointer(rebasing: pixelSizes[..<count])
                                            : UnsafeBufferPointer(start: nil, count: 0)))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Overwrites the next uses of the requests held (from a next-use file).
    mutating func setNextUses(
        _ body: (UnsafeMutableBufferPointer<Int64>) throws(TraceError) -> Void
    )
        throws(TraceError)
    {
        precondition(carriesNextUses, "RequestChunk: made without room for next uses")
        let count = count
        try nextUses.withUnsafeMutableBufferPointer { all throws(TraceError) in
            try body(UnsafeMutableBufferPointer(rebasing: all[..<count]))
        }
    }
}
