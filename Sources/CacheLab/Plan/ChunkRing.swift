import CacheLabLocking

/// The chunks between a plan's reader and its workers: a few slots the reader fills in turn and
/// every worker reads, each slot filled again once all workers are done with it. So reading runs
/// ahead of the replay (by up to the other slots) and the two overlap, in the memory of the
/// slots alone.
///
/// The reader takes a slot's chunk out to fill it, so it holds the only copy and fills it in
/// place; a worker reads a copy it lets go before it says it is done (`release`).
final class ChunkRing: Sendable {
    private struct State: Sendable {
        var slots: [RequestChunk?]
        /// The sequence number of the chunk each slot holds (-1 before the first).
        var sequence: [Int]
        /// Workers that have not yet released each slot's chunk.
        var pending: [Int]
        /// How many chunks there were, once the reader is done.
        var end: Int?
        /// Why reading stopped early, if it did.
        var failure: TraceError?
    }

    private let state: Locked<State>
    private let workers: Int
    private let count: Int

    /// - Parameters:
    ///   - slots: chunks in the ring (at least 2: one read while another is replayed).
    ///   - workers: how many workers read each chunk.
    init(slots: Int, workers: Int, capacity: Int, carriesNextUses: Bool) {
        precondition(slots >= 2 && workers >= 1, "a ring needs two slots and a worker")
        self.workers = workers
        count = slots
        state = Locked(
            State(
                slots: (0..<slots).map { _ in RequestChunk(capacity: capacity, carriesNextUses: carriesNextUses) },
                sequence: Array(repeating: -1, count: slots), pending: Array(repeating: 0, count: slots)))
    }

    // MARK: The reader

    /// The chunk to fill as number `sequence`, once every worker is done with what its slot held.
    func take(_ sequence: Int) -> RequestChunk? {
        let slot = sequence % count
        return state.wait(until: { $0.pending[slot] == 0 }) { state in
            let chunk = state.slots[slot]
            state.slots[slot] = nil
            return chunk
        }
    }

    /// Hands chunk number `sequence`, filled, to the workers.
    func publish(_ chunk: RequestChunk, _ sequence: Int) {
        let slot = sequence % count
        state.withLockNotifying { state in
            state.slots[slot] = chunk
            state.sequence[slot] = sequence
            state.pending[slot] = workers
        }
    }

    /// Says the trace is over after `chunks` chunks (or failed), giving back the last chunk taken
    /// and not published.
    func finish(chunks: Int, unused: RequestChunk?, failure: TraceError?) {
        let slot = chunks % count
        state.withLockNotifying { state in
            if let unused { state.slots[slot] = unused }
            state.end = chunks
            state.failure = failure
        }
    }

    // MARK: The workers

    /// Chunk number `sequence`, once the reader has filled it; nil when the trace is over or
    /// reading failed.
    func chunk(_ sequence: Int) -> RequestChunk? {
        let slot = sequence % count
        return state.wait(
            until: { state in
                state.sequence[slot] == sequence || state.failure != nil || state.end.map { sequence >= $0 } == true
            }
        ) { state in
            state.failure == nil && state.sequence[slot] == sequence ? state.slots[slot] : nil
        }
    }

    /// Says one worker is done with chunk number `sequence`.
    func release(_ sequence: Int) {
        let slot = sequence % count
        state.withLockNotifying { $0.pending[slot] -= 1 }
    }

    /// Why reading failed, if it did.
    var failure: TraceError? { state.withLock { $0.failure } }
}
