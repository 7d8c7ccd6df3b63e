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
