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

/// A trace held in memory, handed out a chunk at a time (copied): for code that takes a stream.
/// Replays of a trace in memory read it in place instead (`Trace.withBatches`).
public final class TraceArrayStream: RequestStream {
    private let trace: Trace
    private var position = 0
    private var nextEvent = 0
    private var nextUses: [Int64]?

    public var name: String { trace.name }
    public var keyNames: [String]? { trace.keyNames }
    public func keyName(for id: UInt64) -> String? { trace.keyNames?[Int(id)] }
    public var mayHaveEvents: Bool { !trace.events.isEmpty }
    public var mayHavePixelSizes: Bool { trace.pixelSizes != nil }
    public var progress: (done: Int, total: Int?) { (position, trace.count) }
    public var carriesNextUses: Bool { nextUses != nil }

    /// - Parameters:
    ///   - trace: the trace to hand out, chunk by chunk.
    ///   - nextUses: also hand out each request's next use (computed here, once).
    public init(_ trace: Trace, nextUses: Bool = false) {
        self.trace = trace
        self.nextUses = nextUses ? trace.nextUses() : nil
    }

    public func next(into chunk: inout RequestChunk) throws(TraceError) -> Bool {
        let events = trace.events
        guard position < trace.count || nextEvent < events.count else {
            chunk.fill(from: position) { _ in }
            return false
        }
        let wantsNextUses = chunk.carriesNextUses && nextUses != nil
        chunk.fill(from: position) { writer in
            while !writer.isFull {
                while nextEvent < events.count, events[nextEvent].position <= position, !writer.isFull {
                    writer.appendEvent(events[nextEvent])
                    nextEvent += 1
                }
                guard position < trace.count, !writer.isFull else { break }
                if wantsNextUses, let pixelSizes = trace.pixelSizes {
                    writer.append(
                        time: trace.times[position], key: trace.keys[position], size: trace.sizes[position],
                        nextUse: nextUses![position], pixels: pixelSizes[position])
                } else if wantsNextUses {
                    writer.append(
                        time: trace.times[position], key: trace.keys[position], size: trace.sizes[position],
                        nextUse: nextUses![position])
                } else if let pixelSizes = trace.pixelSizes {
                    writer.append(
                        time: trace.times[position], key: trace.keys[position], size: trace.sizes[position],
                        pixels: pixelSizes[position])
                } else {
                    writer.append(time: trace.times[position], key: trace.keys[position], size: trace.sizes[position])
                }
                position += 1
            }
        }
        return true
    }
}

extension Trace {
    /// Lends the trace to `body` in batches of at most `capacity` requests, in place (no copy),
    /// each with the events among its requests; an empty trace gives one empty batch with its
    /// events. `nextUses`, when given, must hold one entry per request.
    public func withBatches(
        capacity: Int = RequestChunk.defaultCapacity, nextUses: [Int64]? = nil, _ body: (RequestBatch) -> Void
    ) {
        precondition(capacity >= 1, "a batch holds at least one request")
        precondition(nextUses.map { $0.count == count } ?? true, "one next use per request")
        let empty: [Int64] = []
        times.withUnsafeBufferPointer { times in
            keys.withUnsafeBufferPointer { keys in
                sizes.withUnsafeBufferPointer { sizes in
                    (nextUses ?? empty).withUnsafeBufferPointer { nextUses in
                        (pixelSizes ?? []).withUnsafeBufferPointer { pixelSizes in
                            events.withUnsafeBufferPointer { events in
                                var start = 0
                                var firstEvent = 0
                                repeat {
                                    let end = min(start + capacity, keys.count)
                                    let last = end == keys.count
                                    // Events before the next batch's first request; the last batch
                                    // takes those after every request too.
                                    var endEvent = firstEvent
                                    while endEvent < events.count, events[endEvent].position < end || last {
                                        endEvent += 1
                                    }
                                    body(
                                        RequestBatch(
                                            start: start,
                                            times: UnsafeBufferPointer(rebasing: times[start..<end]),
                                            keys: UnsafeBufferPointer(rebasing: keys[start..<end]),
                                            sizes: UnsafeBufferPointer(rebasing: sizes[start..<end]),
                                            nextUses: nextUses.isEmpty
                                                ? nextUses : UnsafeBufferPointer(rebasing: nextUses[start..<end]),
                                            events: UnsafeBufferPointer(rebasing: events[firstEvent..<endEvent]),
                                            pixelSizes: pixelSizes.isEmpty
                                                ? pixelSizes : UnsafeBufferPointer(rebasing: pixelSizes[start..<end])))
                                    start = end
                                    firstEvent = endEvent
                                } while start < keys.count
                            }
                        }
                    }
                }
            }
        }
    }
}
