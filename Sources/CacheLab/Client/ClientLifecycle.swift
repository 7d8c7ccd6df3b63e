import ClientModel

/// A client's reaction to app events over a run. It remembers when the disk was last swept (an
/// app keeps that in its defaults, across launches).
public struct ClientLifecycle: Sendable {
    public let client: ClientConfiguration
    /// Trace time of the last disk sweep, if any.
    public private(set) var lastSweep: Int64?

    public init(client: ClientConfiguration) {
        self.client = client
    }

    /// The actions for `event`, in the order they are carried out.
    public mutating func actions(for event: TraceEvent) -> [ClientAction] {
        switch event.kind {
        case .relaunch:
            switch client.diskSweep {
            case .onInsert:
                return [.relaunch]
            case .atLaunch(let interval):
                guard lastSweep.map({ event.time - $0 >= interval }) ?? true else { return [.relaunch] }
                return [.relaunch] + sweepDisk(at: event.time)
            case .atBackgroundAndLaunch:
                return [.relaunch] + sweepDisk(at: event.time)
            }
        case .background:
            var actions: [ClientAction] = []
            if let share = client.memoryShareKeptInBackground, let memory = client.memory {
                actions.append(.trimMemory(toCost: Int(Double(memory.capacity) * share)))
            }
            if client.diskSweep == .atBackgroundAndLaunch { actions += sweepDisk(at: event.time) }
            return actions
        case .memoryWarning:
            guard let memory = client.memory else { return [] }
            return [.trimMemory(toCost: Int(Double(memory.capacity) * client.memoryShareKeptOnWarning))]
        case .foreground, .prefetch, .stopPrefetch:
            return []
        case .favourite:
            return event.key.map { [.pin(key: $0)] } ?? []
        case .unfavourite:
            return event.key.map { [.unpin(key: $0)] } ?? []
        }
    }

    private mutating func sweepDisk(at now: Int64) -> [ClientAction] {
        guard let disk = client.disk else { return [] }
        lastSweep = now
        return [.sweepDisk(limit: disk.capacity, trimRatio: disk.trimRatio ?? 1)]
    }
}
