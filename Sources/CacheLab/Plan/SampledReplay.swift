/// A cell replayed on a spatial sample of the objects: each batch filtered to the sampled
/// requests (events keep their place among them), the inner cell's figures scaled to the whole
/// trace at the end.
final class SampledReplay {
    private let rate: Double
    private let threshold: UInt64
    private let inner: CellReplay
    /// The capacity a `.simulate` cell's points are reported at (the sample ran at `rate` of it).
    private let reportedCapacity: Int?
    private var times: [Int64] = []
    private var keys: [UInt64] = []
    private var sizes: [Int] = []
    private var nextUses: [Int64] = []
    private var events: [TraceEvent] = []
    private var sampled = 0
    private var requests = 0
    private var bytes = 0

    init(rate: Double, inner: CellReplay, reportedCapacity: Int?) {
        self.rate = rate
        threshold = SpatialSample.threshold(rate: rate)
        self.inner = inner
        self.reportedCapacity = reportedCapacity
    }

    func replay(_ batch: RequestBatch) {
        times.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        sizes.removeAll(keepingCapacity: true)
        nextUses.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        let start = sampled
        var nextEvent = 0
        for index in 0..<batch.count {
            while nextEvent < batch.events.count, batch.events[nextEvent].position <= batch.start + index {
                var event = batch.events[nextEvent]
                event.position = start + keys.count
                events.append(event)
                nextEvent += 1
            }
            let key = batch.keys[index]
            requests &+= 1
            bytes &+= batch.sizes[index]
            guard SpatialSample.contains(key, threshold: threshold) else { continue }
            times.append(batch.times[index])
            keys.append(key)
            sizes.append(batch.sizes[index])
            if !batch.nextUses.isEmpty { nextUses.append(batch.nextUses[index]) }
        }
        for var event in batch.events[nextEvent...] {
            event.position = start + keys.count
            events.append(event)
        }
        sampled += keys.count
        times.withUnsafeBufferPointer { times in
            keys.withUnsafeBufferPointer { keys in
                sizes.withUnsafeBufferPointer { sizes in
                    nextUses.withUnsafeBufferPointer { nextUses in
                        events.withUnsafeBufferPointer { events in
                            inner.replay(
                                RequestBatch(
                                    start: start, times: times, keys: keys, sizes: sizes, nextUses: nextUses,
                                    events: events))
                        }
                    }
                }
            }
        }
    }

    func finish() -> CellOutput {
        func estimate(_ point: CurvePoint) -> CurvePoint {
            SpatialSample.estimate(point, rate: rate, requests: requests, bytes: bytes)
        }
        switch inner.finish() {
        case .run(let result):
            var point = CurvePoint(result, method: .sampledSimulation(rate: rate))
            if let reportedCapacity { point.capacity = reportedCapacity }
            return .curve([estimate(point)])
        case .curve(let points):
            return .curve(points.map(estimate))
        case let other:
            return other
        }
    }
}
