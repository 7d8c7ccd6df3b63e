/// Builds a client cell's replay: picks the memory tier's policy type, then the disk tier's, so
/// the loop is specialized for both.
struct ClientRunFactory: PolicyBody {
    let client: ClientConfiguration
    let recordsOutcomes: Bool
    let context: CellContext

    func run<Memory: EvictionPolicy>(_ memory: Memory.Type) -> CellReplay {
        (client.disk?.policy ?? .lru).withOrder(DiskOrder<Memory>(factory: self))
    }

    private struct DiskOrder<Memory: EvictionPolicy>: PolicyBody {
        let factory: ClientRunFactory

        func run<Disk: EvictionPolicy>(_ disk: Disk.Type) -> CellReplay {
            let run = ClientRun<Memory, Disk>(
                client: factory.client, recordsOutcomes: factory.recordsOutcomes, context: factory.context)
            return CellReplay(replay: { run.replay($0) }, finish: { .run(run.finish()) })
        }
    }
}
