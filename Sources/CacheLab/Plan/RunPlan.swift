import CacheLabLocking

/// A run plan: the cells (caches, clients, passes) that every request of one trace goes through,
/// executed in one pass over the trace.
///
/// The cells are spread over the cores, a core owning whole cells for the whole run (so a cache's
/// data stays in its core's caches). A trace read from a file is read once, on a thread of its
/// own, a few chunks ahead of the replay (`ChunkRing`): each chunk goes through every cell before
/// the next is read, so reading and replaying overlap, and memory is what the cells hold plus
/// those chunks, whatever the trace's length. A trace held in memory is replayed in place, one
/// cell after another: memory is then one cell's state per core, however many cells there are.
///
/// Results do not depend on the number of workers or the chunk size: each cell sees every request
/// in order, alone.
public struct RunPlan: Sendable {
    public var source: TraceSource
    public var cells: [RunCell]
    /// Requests per chunk.
    public var chunkCapacity = RequestChunk.defaultCapacity
    /// Chunks between the reader and the workers: how far reading may run ahead.
    public var ringSlots = 4

    public init(source: TraceSource, cells: [RunCell]) {
        self.source = source
        self.cells = cells
    }

    /// Reads the time for the execution's timing figures (seconds, any origin); the core reads no
    /// clock of its own.
    public typealias Stopwatch = @Sendable () -> Double

    /// Runs every cell over the trace, once.
    ///
    /// - Parameters:
    ///   - workers: cores replaying at once (each owns whole cells); the reader has a thread of
    ///     its own besides.
    ///   - stopwatch: times the reading and the replaying, for `PlanOutcome.timing`.
    ///   - progress: called after each chunk read (from the reading thread).
    /// - Throws: the trace's `TraceError`, if it cannot be read to the end; no output then.
    public func execute(
        workers: Int = ParallelSweep.defaultWorkers, stopwatch: Stopwatch? = nil,
        progress: (@Sendable (PlanProgress) -> Void)? = nil
    ) throws(TraceError) -> PlanOutcome {
        if let trace = source.trace {
            return replayInMemory(trace, workers: workers, stopwatch: stopwatch, progress: progress)
        }
        return try stream(workers: workers, stopwatch: stopwatch, progress: progress)
    }

    /// `execute` on a thread of its own, for async callers.
    public func execute(
        workers: Int = ParallelSweep.defaultWorkers, stopwatch: Stopwatch? = nil,
        progress: (@Sendable (PlanProgress) -> Void)? = nil
    ) async throws(TraceError) -> PlanOutcome {
        let plan = self
        let result = await Threads.detached { () -> Result<PlanOutcome, TraceError> in
            do throws(TraceError) {
                return .success(try plan.execute(workers: workers, stopwatch: stopwatch, progress: progress))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The same cells on each of several traces, each trace read once: the outputs by trace,
    /// then by cell.
    ///
    /// - Parameters:
    ///   - cells: the cells, the same on every trace.
    ///   - sources: the traces, each read once.
    ///   - workers: cores replaying at once.
    public static func execute(
        _ cells: [RunCell], on sources: [TraceSource], workers: Int = ParallelSweep.defaultWorkers
    ) throws(TraceError) -> [[CellOutput]] {
        var outputs: [[CellOutput]] = []
        for source in sources {
            outputs.append(try RunPlan(source: source, cells: cells).execute(workers: workers).outputs)
        }
        return outputs
    }

    /// The outputs of `cells` on a trace held in memory (which cannot fail to read).
    static func replay(_ trace: Trace, _ cells: [RunCell], workers: Int) -> [CellOutput] {
        RunPlan(source: TraceSource(trace), cells: cells).replayInMemory(
            trace, workers: workers, stopwatch: nil, progress: nil
        ).outputs
    }

    // MARK: Execution

    /// Which cells each worker owns: the heaviest first, each to the least loaded worker.
    func assignment(workers: Int) -> [[Int]] {
        let count = workerCount(workers)
        var owned = Array(repeating: [Int](), count: count)
        var load = Array(repeating: 0.0, count: count)
        for cell in heaviestFirst() {
            let worker = load.indices.min { load[$0] < load[$1] }!
            owned[worker].append(cell)
            load[worker] += cells[cell].weight
        }
        return owned.map { $0.sorted() }
    }

    /// The threads a replay of these cells runs on: `workers`, but no more than the cells.
    private func workerCount(_ workers: Int) -> Int { max(1, min(workers, cells.count)) }

    /// The cells by estimated weight, heaviest first (in order of place among equals).
    private func heaviestFirst() -> [Int] {
        cells.indices.sorted {
            cells[$0].weight > cells[$1].weight || (cells[$0].weight == cells[$1].weight && $0 < $1)
        }
    }

    private func replayInMemory(
        _ trace: Trace, workers: Int, stopwatch: Stopwatch?, progress: (@Sendable (PlanProgress) -> Void)?
    ) -> PlanOutcome {
        let started = stopwatch?() ?? 0
        let nextUses = cells.contains(where: \.needsFuture) ? trace.nextUses() : nil
        // Handed out one at a time, heaviest first, to whichever worker is free: every cell
        // reads the trace from memory, so no worker waits on another, and the weights are only
        // estimates (a share fixed up front by weight left a core idle at the end of each of
        // `tune`'s stages: the Speed article). Each output goes to its cell's place, so who ran
        // it changes nothing.
        let order = heaviestFirst()
        // The next place in `order` to hand out, and the requests replayed by every cell so far.
        let shared = Locked((next: 0, replayed: 0))
        let context = CellContext(name: trace.name)
        let collected = Locked(Collected(cells: cells.count))
        let cells = cells
        let capacity = chunkCapacity
        Threads.run(workerCount(workers)) { worker in
            // One cell at a time over the whole trace: reading a trace in memory again costs
            // nothing, and only that cell's state is alive, kept in its core's caches.
            let start = stopwatch?() ?? 0
            var ran: [Int] = []
            var outputs: [CellOutput] = []
            while true {
                let place = shared.withLock { shared in
                    defer { shared.next += 1 }
                    return shared.next
                }
                guard place < order.count else { break }
                let cell = order[place]
                let replay = cells[cell].makeReplay(context)
                trace.withBatches(capacity: capacity, nextUses: nextUses) { batch in
                    replay.replay(batch)
                    let replayed = shared.withLock { shared in
                        shared.replayed += batch.count
                        return shared.replayed
                    }
                    if worker == 0 {
                        // Every cell's requests so far, as requests of the trace.
                        let done = replayed / order.count
                        progress?(PlanProgress(requests: done, done: done, total: trace.count))
                    }
                }
                ran.append(cell)
                outputs.append(replay.finish())
            }
            collected.withLock { $0.store(outputs, for: ran, busy: (stopwatch?() ?? 0) - start) }
        }
        // The first worker may not have replayed the last batch.
        progress?(PlanProgress(requests: trace.count, done: trace.count, total: trace.count))
        let wall = (stopwatch?() ?? 0) - started
        return collected.withLock { collected in
            PlanOutcome(
                outputs: collected.outputs.map { $0! }, requests: trace.count,
                timing: PlanTiming(wall: wall, reading: 0, replaying: collected.busiest, nextUses: nil))
        }
    }

    private func stream(
        workers: Int, stopwatch: Stopwatch?, progress: (@Sendable (PlanProgress) -> Void)?
    ) throws(TraceError) -> PlanOutcome {
        let started = stopwatch?() ?? 0
        let source = source
        let needsFuture = cells.contains(where: \.needsFuture)
        var nextUseFile: NextUseFile?
        if needsFuture && !source.carriesNextUses {
            nextUseFile = try NextUseFile.build(from: source, chunkCapacity: chunkCapacity) { requests, stream in
                let (done, total) = stream.progress
                progress?(PlanProgress(phase: .nextUses, requests: requests, done: done, total: total))
            }
        }
        let nextUsesSeconds = nextUseFile == nil ? nil : (stopwatch?() ?? 0) - started
        let owned = assignment(workers: workers)
        let ring = ChunkRing(
            slots: ringSlots, workers: owned.count, capacity: chunkCapacity, carriesNextUses: needsFuture)
        let context = CellContext(name: source.name)
        let collected = Locked(Collected(cells: cells.count))
        let cells = cells
        let nextUses = nextUseFile
        Threads.run(owned.count + 1) { index in
            if index == owned.count {
                Self.read(
                    source, into: ring, nextUses: nextUses, collected: collected, stopwatch: stopwatch,
                    progress: progress)
                return
            }
            let replays = owned[index].map { cells[$0].makeReplay(context) }
            var busy = 0.0
            var sequence = 0
            // The chunk is let go when this returns, before the ring hears it is done with.
            func replayNext() -> Bool {
                guard let chunk = ring.chunk(sequence) else { return false }
                let start = stopwatch?() ?? 0
                chunk.withBatch { batch in
                    for replay in replays { replay.replay(batch) }
                }
                busy += (stopwatch?() ?? 0) - start
                return true
            }
            while replayNext() {
                ring.release(sequence)
                sequence += 1
            }
            guard ring.failure == nil else { return }
            let outputs = replays.map { $0.finish() }
            collected.withLock { $0.store(outputs, for: owned[index], busy: busy) }
        }
        if let failure = ring.failure { throw failure }
        let wall = (stopwatch?() ?? 0) - started
        return collected.withLock { collected in
            PlanOutcome(
                outputs: collected.outputs.map { $0! }, requests: collected.requests,
                timing: PlanTiming(
                    wall: wall, reading: collected.reading, replaying: collected.busiest, nextUses: nextUsesSeconds))
        }
    }

    /// The reading thread: fills the ring's chunks from a fresh stream until the trace is over.
    private static func read(
        _ source: TraceSource, into ring: ChunkRing, nextUses: NextUseFile?, collected: Locked<Collected>,
        stopwatch: Stopwatch?, progress: (@Sendable (PlanProgress) -> Void)?
    ) {
        var sequence = 0
        var requests = 0
        var reading = 0.0
        do throws(TraceError) {
            var start = stopwatch?() ?? 0
            let stream = try source.open()
            reading += (stopwatch?() ?? 0) - start
            while var chunk = ring.take(sequence) {
                start = stopwatch?() ?? 0
                let more = try stream.next(into: &chunk)
                if more, let nextUses { try nextUses.fill(&chunk, trace: stream.name) }
                reading += (stopwatch?() ?? 0) - start
                guard more else {
                    if let nextUses, requests != nextUses.count {
                        throw .unreadable(
                            file: stream.name,
                            reason: "it changed while being read: \(requests) requests, \(nextUses.count) before")
                    }
                    ring.finish(chunks: sequence, unused: chunk, failure: nil)
                    break
                }
                requests += chunk.count
                ring.publish(chunk, sequence)
                sequence += 1
                let (done, total) = stream.progress
                progress?(PlanProgress(requests: requests, done: done, total: total))
            }
            collected.withLock {
                $0.requests = requests
                $0.reading = reading
            }
        } catch {
            ring.finish(chunks: sequence, unused: nil, failure: error)
        }
    }
}

/// What the cells gave, gathered from the workers.
private struct Collected: Sendable {
    var outputs: [CellOutput?]
    var busiest = 0.0
    var reading = 0.0
    var requests = 0

    init(cells: Int) {
        outputs = Array(repeating: nil, count: cells)
    }

    mutating func store(_ results: [CellOutput], for cells: [Int], busy: Double) {
        for (cell, output) in zip(cells, results) { outputs[cell] = output }
        busiest = max(busiest, busy)
    }
}
