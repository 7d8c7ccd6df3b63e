/// A cell's replay: what it does with each batch of requests, and its output at the end.
///
/// Built on the thread that runs it and used only there. It is a pair of closures, not a protocol,
/// so that each closure is compiled for the cell's concrete policy types (a call through a
/// protocol on a generic class would run its unspecialized code).
public struct CellReplay {
    /// Replays one batch; batches come in trace order.
    public let replay: (RequestBatch) -> Void
    /// The output, once every batch has been replayed.
    public let finish: () -> CellOutput

    public init(replay: @escaping (RequestBatch) -> Void, finish: @escaping () -> CellOutput) {
        self.replay = replay
        self.finish = finish
    }
}
