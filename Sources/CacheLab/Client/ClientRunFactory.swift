/// Builds a client cell's replay: opens the memory tier's policy type, then the disk tier's
/// (`PolicyKind.withOrderOpened`: the pair is not specialized, which for every pair of policies
/// would multiply the core's release build time by three).
struct ClientRunFactory: PolicyBody {
    let client: ClientConfiguration
    let recordsOutcomes: Bool
    let context: CellContext

    func run<Memory: EvictionPolicy>(_ memory: Memory.Type) -> CellReplay {
        (client.disk?.policy ?? .lru).withOrderOpened(DiskOrder<Memory>(factory: self))
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
