import CacheEngine
import ClientModel
import Testing

@testable import CacheLab

/// Each preset as its library sizes itself on each device, and its reaction to each app event,
/// against the rules in the DocC article "Client presets" (which names the library files).
@Suite("Client presets: sizes and reactions, as the libraries' sources give them")
struct ClientPresetTests {
    static let mebibyte = 1 << 20

    static func actions(
        _ preset: ClientPreset, _ device: DeviceProfile, _ kinds: [TraceEvent.Kind]
    )
        -> [[ClientAction]]
    {
        var lifecycle = ClientLifecycle(client: preset.configuration(device: device))
        return kinds.enumerated().map { index, kind in
            lifecycle.actions(for: TraceEvent(position: 0, time: Int64(index) * 60_000, kind: kind))
        }
    }

    @Test func nukeSizesByRAMCappedAndRefusesEntriesOfATenth() {
        let se = ClientPreset.nuke.configuration(device: .iphoneSE2)
        #expect(se.memory?.policy == .clock)
        #expect(se.memory?.capacity == (3 << 30) * 15 / 100)
        #expect(se.memory?.largestEntry == Int(Double((3 << 30) * 15 / 100) * 0.1) - 1)
        #expect(ClientPreset.nuke.configuration(device: .iphone15).memory?.capacity == 768 * Self.mebibyte)
        #expect(se.disk?.capacity == 150 * Self.mebibyte && se.disk?.trimRatio == 0.7)
        #expect(se.diskSweep == .atLaunch(minimumInterval: 30 * 60_000))
        // Relaunch sweeps (none yet), background trims to 10 %, warning clears, foreground nothing;
        // a relaunch a minute later does not sweep again.
        let limit = se.memory!.capacity
        #expect(
            Self.actions(.nuke, .iphoneSE2, [.relaunch, .background, .memoryWarning, .foreground, .relaunch]) == [
                [.relaunch, .sweepDisk(limit: 150 * Self.mebibyte, trimRatio: 0.7)],
                [.trimMemory(toCost: Int(Double(limit) * 0.1))], [.trimMemory(toCost: 0)], [], [.relaunch],
            ])
    }

    @Test(arguments: [ClientPreset.kingfisher, .sdwebimage])
    func kingfisherAndSDWebImagePurgeMemoryInTheBackgroundAndSweepTheDiskThere(preset: ClientPreset) {
        let client = preset.configuration(device: .iphone15)
        let memory = client.memory!.capacity
        #expect(memory == (preset == .kingfisher ? (6 << 30) / 4 : CacheConfiguration.unlimited))
        #expect(client.memory?.ttl == (preset == .kingfisher ? 300_000 : nil))
        #expect(client.disk?.ttl == 7 * 86_400_000 && client.disk?.ttlMode == .sliding)
        #expect(client.disk?.trimRatio == 0.5 && client.diskSweep == .atBackgroundAndLaunch)
        let sweep = ClientAction.sweepDisk(limit: CacheConfiguration.unlimited, trimRatio: 0.5)
        #expect(
            Self.actions(preset, .iphone15, [.background, .foreground, .memoryWarning, .relaunch]) == [
                [.trimMemory(toCost: 0), sweep], [], [.trimMemory(toCost: 0)], [.relaunch, sweep],
            ])
    }

    @Test func glideTakesTwoScreensWithinItsShareOfTheMemoryClass() {
        // Mid-range: 2 screens of 1080×2400 fit within 0.4 × 256 MiB − 4 MiB with the pool's one.
        let mid = ClientPreset.glide.configuration(device: .androidMid)
        #expect(mid.memory?.capacity == 2 * 1_080 * 2_400 * 4)
        // Go: no pool, 2 screens of 720×1600 within 0.33 × 128 MiB − 2 MiB.
        #expect(ClientPreset.glide.configuration(device: .androidGo).memory?.capacity == 2 * 720 * 1_600 * 4)
        // A tiny memory class: cache and pool share what is left, 2 : 1.
        let tiny = DeviceProfile(
            name: "tiny", ram: 1 << 30, screenWidth: 1_080, screenHeight: 2_400, memoryClass: 32 << 20)
        let available = Int(Double(32 << 20) * 0.4) - (4 << 20)
        #expect(ClientPreset.glideMemory(tiny) == available * 2 / 3)
        #expect(mid.disk?.capacity == 250 * Self.mebibyte && mid.diskSweep == .onInsert)
        // UI hidden: half the maximum; low memory: clear; foreground and relaunch: nothing more.
        #expect(
            Self.actions(.glide, .androidMid, [.background, .memoryWarning, .foreground, .relaunch]) == [
                [.trimMemory(toCost: mid.memory!.capacity / 2)], [.trimMemory(toCost: 0)], [], [.relaunch],
            ])
    }

    @Test func coilTakesAShareOfTheMemoryClassAndTwoPercentOfFreeDisk() {
        let mid = ClientPreset.coil.configuration(device: .androidMid)
        #expect(mid.memory?.capacity == Int(Double(256 << 20) * 0.20))
        #expect(mid.disk?.capacity == 250 * Self.mebibyte)  // 2 % of 32 GiB, capped
        let go = ClientPreset.coil.configuration(device: .androidGo)
        #expect(go.memory?.capacity == Int(Double(128 << 20) * 0.15))
        #expect(go.disk?.capacity == (4 << 30) / 50)  // 2 % of 4 GiB: 81.9 MiB
        var full = DeviceProfile.androidGo
        full.freeDisk = 100 << 20
        #expect(ClientPreset.coil.configuration(device: full).disk?.capacity == 10 * Self.mebibyte)
        #expect(
            Self.actions(.coil, .androidMid, [.background, .memoryWarning, .foreground, .relaunch]) == [
                [], [.trimMemory(toCost: 0)], [], [.relaunch],
            ])
    }

    @Test func frescoTakesAQuarterOfTheMemoryClassAndIgnoresPressure() {
        #expect(ClientPreset.fresco.configuration(device: .androidMid).memory?.capacity == (256 << 20) / 4)
        let small = DeviceProfile(
            name: "small", ram: 1 << 30, screenWidth: 480, screenHeight: 800, memoryClass: 48 << 20)
        #expect(ClientPreset.fresco.configuration(device: small).memory?.capacity == 6 * Self.mebibyte)
        let fresco = ClientPreset.fresco.configuration(device: .androidMid)
        #expect(fresco.disk?.capacity == 40 * Self.mebibyte && fresco.disk?.trimRatio == 0.9)
        let memory = fresco.memory!.capacity
        #expect(
            Self.actions(.fresco, .androidMid, [.background, .memoryWarning, .foreground, .relaunch]) == [
                [], [.trimMemory(toCost: memory)], [], [.relaunch],
            ])
    }

    @Test func aHardDiskLimitTrimsToItsRatioOnTheWriteThatOverflows() {
        // Fresco-like: a 100-byte disk trimmed to 90 % by the insert that finds it full
        let client = ClientConfiguration(
            name: "f", memory: nil, disk: TierConfiguration(policy: .lru, capacity: 100, trimRatio: 0.9))
        var trace = Trace(name: "t")
        for key in 1...11 { trace.append(time: Int64(key), key: UInt64(key), size: 10) }
        let result = Replay.simulate(trace, client: client)
        #expect((result.client?.diskPeakBytes ?? .max) <= 100)
        #expect(result.evictions == 2)  // 110 bytes would overflow: down to 90, then the 11th
    }

    @Test func nukeDoesNotKeepAnImageOfATenthOfItsMemory() {
        // Given a device whose Nuke limit is 3,000,000 bytes: a 300×300 bitmap (360 KB) is over a
        // tenth of it, a 150×150 one (90 KB) under
        let device = DeviceProfile(name: "d", ram: 20_000_000, screenWidth: 100, screenHeight: 100)
        let nuke = ClientPreset.nuke.configuration(device: device)
        #expect(nuke.memory?.capacity == 3_000_000 && nuke.memory?.largestEntry == 299_999)
        var trace = Trace(name: "t")
        for pixels in [PixelSize(width: 300, height: 300), PixelSize(width: 150, height: 150)] {
            trace.append(time: 0, key: UInt64(pixels.width), size: 10_000, pixels: pixels.packed)
            trace.append(time: 1_000, key: UInt64(pixels.width), size: 10_000, pixels: pixels.packed)
        }
        let result = Replay.simulate(trace, client: nuke, outcomes: true)
        #expect(result.outcomes == [.network, .disk, .network, .memory])
    }

    @Test func cappingHoldsMemorysPinsToItsCapacityAndKeepsTheDisksOwn() {
        // Given a client whose tiers and pin budgets are over the budgets
        let client = ClientConfiguration(
            name: "big", memory: TierConfiguration(policy: .lru, capacity: 8_000_000, pinBudget: 6_000_000),
            disk: TierConfiguration(policy: .lru, capacity: 50_000_000, pinBudget: 20_000_000))

        // When it is capped to 1 MB of memory and 4 MB of disk
        let capped = client.capped(memory: 1_000_000, disk: 4_000_000)

        // Then the capacities are the budgets, memory's pins follow its capacity, and the disk's
        // pins keep their own budget, which does not follow the capacity (nor does its default)
        #expect(capped.memory?.capacity == 1_000_000 && capped.memoryPinBudget == 1_000_000)
        #expect(capped.disk?.capacity == 4_000_000 && capped.diskPinBudget == 20_000_000)
        var defaults = client
        defaults.disk?.pinBudget = nil
        #expect(
            defaults.capped(memory: 1_000_000, disk: 4_000_000).diskPinBudget
                == ClientConfiguration.defaultDiskPinBudget(for: .bytes))
    }
}
