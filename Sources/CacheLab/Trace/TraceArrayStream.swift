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
