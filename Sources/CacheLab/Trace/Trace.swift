/// A request trace held in memory as parallel arrays, ready for replay.
///
/// Requests are stored column by column so the replay loop touches only what it needs and never
/// allocates. App events (a relaunch, going to the background) sit between requests: an event
/// with `position == i` happens just before request `i`.
///
/// - Invariant: `times`, `keys` and `sizes` (and `pixelSizes`, when present) have the same count;
///   `events` are sorted by position, and every position is in `0...count`; `keyNames`, when
///   present, names every key (`keys[i] < keyNames.count`). The storage changes only through
///   `Trace`'s own methods; `checkInvariants()` lists the rules broken.
public struct Trace: Sendable, Equatable {
    /// A human name for reports, usually the file name or the scenario name.
    public var name: String
    /// Trace time of each request, in milliseconds from the trace's own origin.
    public private(set) var times: [Int64]
    /// Object id of each request.
    public private(set) var keys: [UInt64]
    /// Size in bytes of each request's object, as the request saw it (at least 1).
    public private(set) var sizes: [Int]
    /// Each request's image size in pixels, packed (`PixelSize.packed`, 0 where unknown), when
    /// the trace gives any; `nil` when it gives none.
    public private(set) var pixelSizes: [UInt32]?
    /// App events, sorted by position.
    public private(set) var events: [TraceEvent]
    /// For traces whose keys are strings (cachelab's own format), the string behind each id:
    /// `keyNames[Int(id)]`. `nil` when the trace's ids are numeric.
    public private(set) var keyNames: [String]?

    public init(
        name: String,
        times: [Int64] = [],
        keys: [UInt64] = [],
        sizes: [Int] = [],
        events: [TraceEvent] = [],
        keyNames: [String]? = nil,
        pixelSizes: [UInt32]? = nil
    ) {
        precondition(pixelSizes.map { $0.count == keys.count } ?? true, "one pixel size per request")
        self.name = name
        self.times = times
        self.keys = keys
        self.sizes = sizes
        self.events = events
        self.keyNames = keyNames
        self.pixelSizes = pixelSizes
    }

    /// The largest object a trace may hold, in bytes: 4 GiB − 1, the most libCacheSim's binary
    /// format can hold. Readers refuse larger sizes, so that the sum of a trace's sizes fits in
    /// 64 bits for any trace that fits in memory (2³¹ requests at this size still do).
    public static let largestSize = Int(UInt32.max)

    /// The number of requests (events are not requests).
    public var count: Int { keys.count }

    /// Appends one request.
    public mutating func append(time: Int64, key: UInt64, size: Int) {
        times.append(time)
        keys.append(key)
        sizes.append(size)
        pixelSizes?.append(0)
    }

    /// Appends one request whose image has `pixels` (packed; 0 for unknown).
    public mutating func append(time: Int64, key: UInt64, size: Int, pixels: UInt32) {
        if pixelSizes == nil, pixels != 0 {
            pixelSizes = [UInt32](repeating: 0, count: count)
        }
        append(time: time, key: key, size: size)
        if pixelSizes != nil { pixelSizes![count - 1] = pixels }
    }

    /// Appends an event that happens after every request appended so far; `key` is the photo a
    /// `favourite` or `unfavourite` names (nil for the app's lifecycle events).
    public mutating func appendEvent(_ kind: TraceEvent.Kind, time: Int64, key: UInt64? = nil) {
        events.append(TraceEvent(position: count, time: time, kind: kind, key: key))
    }

    /// Appends an event at its own position (at least the last event's; a request at that
    /// position may come later), `key` given as the merged trace names it.
    public mutating func appendEvent(_ event: TraceEvent) {
        precondition(event.position >= (events.last?.position ?? 0), "Trace: events out of order")
        events.append(event)
    }

    /// Appends a chunk's requests and events (a stream read whole).
    public mutating func append(_ batch: RequestBatch) {
        if !batch.pixelSizes.isEmpty, pixelSizes == nil {
            pixelSizes = [UInt32](repeating: 0, count: count)
        }
        if pixelSizes != nil {
            if batch.pixelSizes.isEmpty {
                pixelSizes!.append(contentsOf: repeatElement(0, count: batch.count))
            } else {
                pixelSizes!.append(contentsOf: batch.pixelSizes)
            }
        }
        times.append(contentsOf: batch.times)
        keys.append(contentsOf: batch.keys)
        sizes.append(contentsOf: batch.sizes)
        events.append(contentsOf: batch.events)
    }

    /// Names the keys (a trace of string keys), or forgets their names (`nil`).
    public mutating func nameKeys(_ names: [String]?) {
        keyNames = names
    }

    /// Names the next key id (a trace of string keys) and returns that id.
    public mutating func appendKeyName(_ name: String) -> UInt64 {
        if keyNames == nil { keyNames = [] }
        keyNames!.append(name)
        return UInt64(keyNames!.count - 1)
    }

    /// Reserves storage for `requests` requests.
    public mutating func reserveCapacity(_ requests: Int) {
        times.reserveCapacity(requests)
        keys.reserveCapacity(requests)
        sizes.reserveCapacity(requests)
    }
}
