import ArgumentParser
import CacheEngine
import CacheLab
import ClientModel

/// Two tiers of a client: the presets of image libraries, or tiers of one's own (`run`).
struct ClientOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Replay two tiers as libraries ship them, comma-separated or 'all': \(ClientPreset.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "preset[,preset...]"))
    var client: String?

    @Option(
        help: ArgumentHelp(
            "Two tiers of your own: the memory tier's policy (with --memory-capacity).", valueName: "name"),
        transform: PolicyKind.named)
    var memoryPolicy: PolicyKind?

    @Option(help: ArgumentHelp("The memory tier's capacity (a size or a share of the working set).", valueName: "size"))
    var memoryCapacity: String?

    @Option(
        help: ArgumentHelp("Two tiers of your own: the disk tier's policy (with --disk-capacity).", valueName: "name"),
        transform: PolicyKind.named)
    var diskPolicy: PolicyKind?

    @Option(help: ArgumentHelp("The disk tier's capacity (a size or a share of the working set).", valueName: "size"))
    var diskCapacity: String?

    @Option(
        help: ArgumentHelp(
            "The device's memory, for the presets' memory limits; --client-device overrides it.",
            valueName: "size"))
    var deviceMemory = "4GiB"

    @Option(
        help: ArgumentHelp(
            """
            The device the presets size themselves on (RAM, memory class, screen, free disk): \
            \(DeviceProfile.all.map(\.name).joined(separator: ", ")).
            """, valueName: "name"))
    var clientDevice: String?

    @Option(
        help: ArgumentHelp(
            """
            What a memory tier charges for an image: its decoded bitmap, or its encoded bytes.
            """, valueName: "decoded|encoded"))
    var memoryCost = MemoryCost.decoded

    func validate() throws {
        _ = try requests()
    }

    /// The device of `--client-device`, or one of `--device-memory`.
    func deviceProfile() throws -> DeviceProfile {
        if let device = clientDevice {
            guard let profile = DeviceProfile.named(device) else {
                throw ValidationError(
                    "unknown --client-device '\(device)'; choose from \(DeviceProfile.all.map(\.name).joined(separator: ", "))"
                )
            }
            return profile
        }
        return .generic(ram: try ListOptions.size(deviceMemory, option: "--device-memory"))
    }

    /// Whether any two-tier option was given.
    var isSet: Bool {
        client != nil || memoryPolicy != nil || diskPolicy != nil || memoryCapacity != nil || diskCapacity != nil
    }

    /// A note for a tier's capacity written as a bare number below 1,000 (bytes, smaller than any image).
    var notes: [String] {
        ListOptions.bareBytesNotes(memoryCapacity, option: "--memory-capacity")
            + ListOptions.bareBytesNotes(diskCapacity, option: "--disk-capacity")
    }

    /// The clients asked for: presets, then one pair of tiers of one's own.
    func requests() throws -> [ClientRequest] {
        var requests: [ClientRequest] = []
        if let client {
            let device = try self.deviceProfile()
            let names =
                client.lowercased() == "all"
                ? ClientPreset.allCases.map(\.rawValue) : client.split(separator: ",").map(String.init)
            for name in names {
                let name = name.trimmingCharacters()
                guard let preset = NameLookup.find(name, in: ClientPreset.allCases, by: \.rawValue) else {
                    throw ValidationError(
                        NameLookup.unknown(
                            "client", name, labels: ClientPreset.allCases.map(\.rawValue), extra: ", or all"))
                }
                requests.append(.preset(preset, device: device))
            }
        }
        if memoryPolicy != nil || diskPolicy != nil || memoryCapacity != nil || diskCapacity != nil {
            func tier(_ policy: PolicyKind?, _ capacity: String?, _ name: String) throws -> TierRequest? {
                guard policy != nil || capacity != nil else { return nil }
                guard let capacity else { throw ValidationError("--\(name)-policy needs --\(name)-capacity") }
                return TierRequest(
                    policy: policy ?? .lru, capacity: try ListOptions.capacity(capacity, option: "--\(name)-capacity"))
            }
            requests.append(
                .tiers(
                    memory: try tier(memoryPolicy, memoryCapacity, "memory"),
                    disk: try tier(diskPolicy, diskCapacity, "disk")))
        }
        return requests
    }
}
