/// Requests lent to a replay for the length of one call: pointers into a `RequestChunk` or into a
/// `Trace` held in memory, never kept after the call returns.
public struct RequestBatch {
    /// The trace position of the first request.
    public let start: Int
    public let times: UnsafeBufferPointer<Int64>
    public let keys: UnsafeBufferPointer<UInt64>
    public let sizes: UnsafeBufferPointer<Int>
    /// Each request's next use, when the plan asked for them; else empty.
    public let nextUses: UnsafeBufferPointer<Int64>
    /// The events among the requests, in order, at absolute positions `start...start + count`:
    /// an event at `start + i` comes just before request `i` of the batch, one at
    /// `start + count` after the last.
    public let events: UnsafeBufferPointer<TraceEvent>
    /// Each request's image size in pixels, packed (`PixelSize`, 0 where unknown), when the trace
    /// gives them; else empty.
    public var pixelSizes = UnsafeBufferPointer<UInt32>(start: nil, count: 0)

    public var count: Int { keys.count }
}
