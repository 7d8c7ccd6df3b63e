import ClientModel
import Testing

@testable import CacheLab

@Suite("Two-tier client replay")
struct ClientReplayTests {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// Requests `keys` (size 10 each) from `time` on, a second apart: each download is over
    /// before the next request (`DelayedHitTests` has requests that wait for one).
    static func append(_ trace: inout Trace, _ keys: [UInt64], at time: Int64, size: Int = 10) {
        for (index, key) in keys.enumerated() { trace.append(time: time + Int64(index) * 1_000, key: key, size: size) }
    }

    static func tier(_ capacity: Int, ttl: Int64? = nil, trimRatio: Double? = nil) -> TierConfiguration {
        TierConfiguration(policy: .lru, capacity: capacity, ttl: ttl, ttlMode: .sliding, trimRatio: trimRatio)
    }

    @Test func memoryThenDiskThenNetworkWithRelaunchEmptyingMemoryOnly() {
        // Given a, a, relaunch, a, a
        var trace = Trace(name: "t")
        Self.append(&trace, [1, 1], at: 0)
        trace.appendEvent(.relaunch, time: Self.hour)
        Self.append(&trace, [1, 1], at: Self.hour)
        let both = Replay.simulate(
            trace, client: ClientConfiguration(name: "both", memory: Self.tier(100), disk: Self.tier(100)))
        // Then: network, memory, (relaunch) disk — copied into memory — then memory again
        #expect(both.misses == 1)
        #expect(both.memoryHits == 2)
        #expect(both.diskHits == 1)
        let memoryOnly = Replay.simulate(trace, client: ClientPreset.memoryOnly.configuration(ram: 1 << 30))
        #expect(memoryOnly.misses == 2 && memoryOnly.memoryHits == 2)
        let diskOnly = Replay.simulate(trace, client: ClientPreset.diskUnbounded.configuration(ram: 1 << 30))
        #expect(diskOnly.misses == 1 && diskOnly.diskHits == 3)
    }

    @Test func aSoftDiskLimitIsOnlyEnforcedAtLaunchAfterThirtyMinutes() {
        // Given a disk of 50 bytes trimmed to 70 % at launch, and 8 objects of 10 bytes stored
        let client = ClientConfiguration(
            name: "soft", memory: nil, disk: Self.tier(50, trimRatio: 0.7),
            diskSweep: .atLaunch(minimumInterval: 30 * 60_000))
        var trace = Trace(name: "t")
        Self.append(&trace, Array(1...8), at: 0)
        // When the app relaunches (no sweep yet, so it sweeps): 80 bytes > 50, trimmed to at most
        // 35: the 3 most recent (6, 7, 8) stay
        trace.appendEvent(.relaunch, time: 10 * 60_000)
        Self.append(&trace, [1, 9, 10], at: 10 * 60_000)
        // And a relaunch 10 minutes later does not sweep (the last sweep is too recent)
        trace.appendEvent(.relaunch, time: 20 * 60_000)
        Self.append(&trace, [5, 6, 7, 8, 9, 10, 1], at: 20 * 60_000)
        let result = Replay.simulate(trace, client: client)
        // 8 first misses; then 1, 9 and 10 miss (60 bytes stored: over the limit, not swept);
        // then 5 misses (swept) and the other 6 hit
        #expect(result.misses == 12)
        #expect(result.diskHits == 6)
        #expect(result.evictions == 5)
    }

    @Test func kingfisherSweepsExpiredFilesWhenGoingToTheBackground() {
        let client = ClientPreset.kingfisher.configuration(ram: 1 << 30)
        var trace = Trace(name: "t")
        Self.append(&trace, [1, 2], at: 0)
        trace.appendEvent(.background, time: Self.hour)
        trace.appendEvent(.relaunch, time: 8 * Self.day)  // both expired 7 days after last use
        Self.append(&trace, [1], at: 8 * Self.day)
        let result = Replay.simulate(trace, client: client)
        #expect(result.misses == 3)
        #expect(result.expirations == 2)  // 1 and 2 swept from disk at launch; memory had been emptied
    }

    @Test func nukeKeepsATenthOfItsMemoryInTheBackground() {
        let client = ClientConfiguration(
            name: "n", memory: Self.tier(100), disk: nil, memoryShareKeptInBackground: 0.1)
        var trace = Trace(name: "t")
        Self.append(&trace, Array(1...10), at: 0)
        trace.appendEvent(.background, time: 20_000)
        trace.appendEvent(.foreground, time: 21_000)
        Self.append(&trace, [10, 9], at: 22_000)
        let result = Replay.simulate(trace, client: client)
        #expect(result.memoryHits == 1)  // only the most recent entry (10) survives the trim
    }

    @Test func aMemoryWarningClearsMemory() {
        var trace = Trace(name: "t")
        Self.append(&trace, [1], at: 0)
        trace.appendEvent(.memoryWarning, time: 1_000)
        Self.append(&trace, [1], at: 2_000)
        let result = Replay.simulate(trace, client: ClientPreset.sdwebimage.configuration(ram: 1 << 30))
        #expect(result.memoryHits == 0 && result.diskHits == 1)
    }

    @Test(arguments: ClientPreset.allCases)
    func everyPresetReplaysEveryCorpusScenarioDeterministically(preset: ClientPreset) {
        let trace = ScrollScenario.named("weekly-returner")!.makeTrace()
        let first = Replay.simulate(trace, client: preset.configuration(ram: 4 << 30))
        #expect(first == Replay.simulate(trace, client: preset.configuration(ram: 4 << 30)))
        #expect(first.hits + first.delayedHits + first.misses == trace.count)
        #expect(first.memoryHits + first.diskHits == first.hits)
        #expect(first.label == preset.rawValue)
    }
}

@Suite("A relaunch rebuilds the disk from what it persisted")
struct RelaunchRebuildTests {
    static func fifoDisk(ttl: Int64? = nil) -> ClientConfiguration {
        ClientConfiguration(
            name: "fifo-disk", memory: nil, disk: TierConfiguration(policy: .fifo, capacity: 20, ttl: ttl))
    }

    @Test func fifoOrderBecomesLastUseOrderAfterARelaunch() {
        // Given a FIFO disk of two objects: a then b stored, then a used again
        var trace = Trace(name: "t")
        ClientReplayTests.append(&trace, [1, 2, 1], at: 0)
        // When the app relaunches and a third object arrives
        trace.appendEvent(.relaunch, time: 10_000)
        ClientReplayTests.append(&trace, [3, 1, 2], at: 10_000)
        let result = Replay.simulate(trace, client: Self.fifoDisk(), outcomes: true)
        // Then the rebuilt order is by last use (b, a): b is evicted, not a, as FIFO alone would do
        #expect(result.outcomes == [.network, .network, .disk, .network, .disk, .network])
    }

    @Test func withoutARelaunchFIFOKeepsInsertionOrder() {
        var trace = Trace(name: "t")
        ClientReplayTests.append(&trace, [1, 2, 1, 3, 1, 2], at: 0)
        let result = Replay.simulate(trace, client: Self.fifoDisk(), outcomes: true)
        #expect(result.outcomes == [.network, .network, .disk, .network, .network, .network])
    }

    @Test func aFixedLifetimeCountsFromTheLastUseAfterARelaunch() {
        // Given a fixed 10 s lifetime: stored at 0, used at 8 s
        var trace = Trace(name: "t")
        ClientReplayTests.append(&trace, [1], at: 0)
        ClientReplayTests.append(&trace, [1], at: 8_000)
        trace.appendEvent(.relaunch, time: 9_000)
        // When it is asked for at 12 s, after a relaunch (the disk persisted only its last use)
        ClientReplayTests.append(&trace, [1], at: 12_000)
        let result = Replay.simulate(trace, client: Self.fifoDisk(ttl: 10_000), outcomes: true)
        // Then it is still alive: 12 s is within 10 s of the last use
        #expect(result.outcomes == [.network, .disk, .disk])
    }

    @Test func lifecycleActionsFollowTheClientsSweepTiming() {
        var nuke = ClientLifecycle(client: ClientPreset.nuke.configuration(ram: 1_000_000_000))
        let launch = TraceEvent(position: 0, time: 0, kind: .relaunch)
        #expect(nuke.actions(for: launch) == [.relaunch, .sweepDisk(limit: 150 << 20, trimRatio: 0.7)])
        // A relaunch 10 minutes later does not sweep again; the background trims memory to 10 %
        #expect(nuke.actions(for: TraceEvent(position: 0, time: 600_000, kind: .relaunch)) == [.relaunch])
        #expect(
            nuke.actions(for: TraceEvent(position: 0, time: 600_000, kind: .background))
                == [.trimMemory(toCost: 15_000_000)])
        #expect(
            nuke.actions(for: TraceEvent(position: 0, time: 600_000, kind: .memoryWarning)) == [.trimMemory(toCost: 0)])
    }
}
