import CacheEngine
import CacheLabRecorder

/// Any `ImageCaching` with its lookups recorded by a `TraceRecorder`, for an app whose cache is
/// one tier rather than the whole `ImagePipeline` (which records by itself).
///
/// A hit is recorded at once, with the value's size and this cache's `source`. A miss has no size
/// until the app fetches the image and inserts it: it is recorded then, at the lookup's time, as
/// answered by the `network`, with the inserted size. A miss that no insertion of the same key
/// follows (the fetch failed) is not recorded, as the recorder records no failed lookup.
public struct RecordingCache<Base: ImageCaching>: ImageCaching where Base.Key: CustomStringConvertible {
    public private(set) var base: Base
    public let recorder: TraceRecorder
    /// The tier this cache is in the app: `.memory` or `.disk`.
    public let source: TraceRecorder.Source
    private let size: (Base.Value) -> Int
    /// The last lookup, if it missed: recorded when its value is inserted.
    private var missed: (key: Base.Key, time: Int64)?

    /// Wraps `base`; `size` gives a value's size in bytes, the one a hit is recorded with.
    public init(
        _ base: Base, recorder: TraceRecorder, source: TraceRecorder.Source, size: @escaping (Base.Value) -> Int
    ) {
        self.base = base
        self.recorder = recorder
        self.source = source
        self.size = size
    }

    public var configuration: CacheConfiguration { base.configuration }
    public var count: Int { base.count }
    public var totalCost: Int { base.totalCost }

    public mutating func value(forKey key: Base.Key, at now: Int64) -> Base.Value? {
        guard let value = base.value(forKey: key, at: now) else {
            missed = (key, now)
            return nil
        }
        missed = nil
        recorder.recordLookup(key.description, size: size(value), source: source, at: now)
        return value
    }

    @discardableResult
    public mutating func insert(_ value: Base.Value, forKey key: Base.Key, size: Int, at now: Int64) -> Bool {
        if let missed, missed.key == key {
            recorder.recordLookup(key.description, size: size, source: .network, at: missed.time)
            self.missed = nil
        }
        return base.insert(value, forKey: key, size: size, at: now)
    }

    @discardableResult
    public mutating func removeValue(forKey key: Base.Key) -> Base.Value? {
        base.removeValue(forKey: key)
    }

    public mutating func removeAll() {
        base.removeAll()
    }
}

extension RecordingCache where Base.Value == [UInt8] {
    /// Wraps a cache of image bytes: a hit is recorded with the bytes' count.
    public init(_ base: Base, recorder: TraceRecorder, source: TraceRecorder.Source) {
        self.init(base, recorder: recorder, source: source, size: \.count)
    }
}
