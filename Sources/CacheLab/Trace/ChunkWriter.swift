/// Appends requests and events to a chunk being filled (`RequestChunk.fill`): stores through
/// pointers, no check per request but the capacity's.
struct ChunkWriter {
    let capacity: Int
    let eventCapacity: Int
    let start: Int
    private(set) var count = 0
    private let times: UnsafeMutablePointer<Int64>
    private let keys: UnsafeMutablePointer<UInt64>
    private let sizes: UnsafeMutablePointer<Int>
    private let pixelSizes: UnsafeMutablePointer<UInt32>
    private let nextUses: UnsafeMutablePointer<Int64>?
    private(set) var events: [TraceEvent]
    /// Whether requests were appended with pixel sizes (a reader gives all of a fill's or none).
    private(set) var hasPixelSizes = false

    init(
        capacity: Int, eventCapacity: Int, start: Int, times: UnsafeMutablePointer<Int64>,
        keys: UnsafeMutablePointer<UInt64>, sizes: UnsafeMutablePointer<Int>, pixelSizes: UnsafeMutablePointer<UInt32>,
        nextUses: UnsafeMutablePointer<Int64>?, events: [TraceEvent]
    ) {
        self.capacity = capacity
        self.eventCapacity = eventCapacity
        self.start = start
        self.times = times
        self.keys = keys
        self.sizes = sizes
        self.pixelSizes = pixelSizes
        self.nextUses = nextUses
        self.events = events
    }

    /// Appends a request with its next use and its image's pixel size.
    @inline(__always)
    mutating func append(time: Int64, key: UInt64, size: Int, nextUse: Int64, pixels: UInt32) {
        pixelSizes[count] = pixels
        hasPixelSizes = true
        append(time: time, key: key, size: size, nextUse: nextUse)
    }

    /// Appends a request with its image's pixel size (packed, 0 for unknown); a reader that
    /// gives pixel sizes appends every request of a fill this way.
    @inline(__always)
    mutating func append(time: Int64, key: UInt64, size: Int, pixels: UInt32) {
        pixelSizes[count] = pixels
        hasPixelSizes = true
        append(time: time, key: key, size: size)
    }

    /// Whether the chunk takes no more: its requests or its events are at capacity.
    @inline(__always)
    var isFull: Bool { count == capacity || events.count >= eventCapacity }

    /// Whether the chunk has room for next uses (a reader that carries them fills them).
    var wantsNextUses: Bool { nextUses != nil }

    /// Appends a request; the chunk must not be full.
    @inline(__always)
    mutating func append(time: Int64, key: UInt64, size: Int) {
        times[count] = time
        keys[count] = key
        sizes[count] = size
        count &+= 1
    }

    /// Appends a request and its next use; the chunk must not be full.
    @inline(__always)
    mutating func append(time: Int64, key: UInt64, size: Int, nextUse: Int64) {
        nextUses?[count] = nextUse
        append(time: time, key: key, size: size)
    }

    /// Appends an event after the requests appended so far.
    mutating func appendEvent(_ kind: TraceEvent.Kind, time: Int64, key: UInt64? = nil) {
        events.append(TraceEvent(position: start + count, time: time, kind: kind, key: key))
    }

    /// Appends a request or event from a trace held in memory: its events keep their positions.
    mutating func appendEvent(_ event: TraceEvent) {
        events.append(event)
    }
}
