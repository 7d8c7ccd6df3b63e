import ClientModel

/// A client of `cachelab run --client` or `--memory-policy/--disk-policy`.
public enum ClientRequest: Sendable {
    /// A library's defaults, as it sizes itself on a device.
    case preset(ClientPreset, device: DeviceProfile)
    /// Tiers of one's own.
    case tiers(memory: TierRequest?, disk: TierRequest?)

    var needsStatistics: Bool {
        guard case .tiers(let memory, let disk) = self else { return false }
        return [memory, disk].contains { tier in
            if case .percentOfWorkingSet? = tier?.capacity { true } else { false }
        }
    }

    func configuration(
        _ request: RunRequest, _ statistics: TraceStatistics?
    ) throws(RunRequestError)
        -> ClientConfiguration
    {
        switch self {
        case .preset(let preset, let device):
            var configuration = preset.configuration(device: device, network: request.network)
            configuration.sizeMode = request.sizeMode
            configuration.memoryCost = request.memoryCost
            configuration.memory?.admission = request.admission
            configuration.disk?.admission = request.admission
            if let admission = request.admission { configuration.name += "+\(admission)" }
            return configuration
        case .tiers(let memory, let disk):
            func tier(_ tier: TierRequest?, _ name: String) throws(RunRequestError) -> TierConfiguration? {
                guard let tier else { return nil }
                return TierConfiguration(
                    policy: tier.policy,
                    capacity: try RunRequest.resolve(
                        tier.capacity, statistics, request.sizeMode, what: "\(name) capacity"),
                    ttl: request.ttl, ttlMode: request.ttlMode, trimRatio: request.trimRatio,
                    admission: request.admission)
            }
            let memory = try tier(memory, "memory")
            let disk = try tier(disk, "disk")
            let name = [memory.map { "memory:\($0.policy.rawValue)" }, disk.map { "disk:\($0.policy.rawValue)" }]
                .compactMap { $0 }.joined(separator: "+")
            return ClientConfiguration(
                name: name, memory: memory, disk: disk, sizeMode: request.sizeMode, network: request.network,
                memoryCost: request.memoryCost)
        }
    }
}
