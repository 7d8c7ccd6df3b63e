import CacheLab
import FixtureServer
import Foundation
import LiveReplay
import LiveServer
import Testing

/// Live replay paced by the trace against a server shaped like the simulator's network: the
/// requests the simulator calls delayed hits (made while their photo was still downloading) are
/// delayed hits live too, but for those within the timing margin of their download's end.
///
/// The committed corpus's lists are lazy stacks, which ask for a row once per appearance: no
/// request there comes while its photo downloads. A prefetching list (`ListKind.prefetching`)
/// asks again when the row shows, so a fling on a slow network makes delayed hits; these tests
/// replay the corpus's scenarios as prefetching lists on 3G. Their prefetches are replayed as
/// plain requests (the `prefetch` and `stop_prefetch` events left out): paced, a stop that comes
/// near its prefetch's download's end cancels it or not by the wall clock, and what it left
/// decides later requests' hits and misses, which the margin (a delayed hit or not) does not
/// cover. The unpaced live suite checks the prefetcher request by request.
///
/// Timing is what they test, so they run alone, on a machine doing nothing else: with the rest of
/// the suite loading both cores, downloads ran seconds late. `CACHELAB_PACED=1` enables them
/// (`.ci/run` runs them after the suite: `swift test --skip-build --filter PacedLiveReplayTests`);
/// `CACHELAB_PACED=corpus` replays every committed scenario instead of the flinger alone.
@Suite("Paced live replay: delayed hits agree with the simulator's")
struct PacedLiveReplayTests {
    static let setting = ProcessInfo.processInfo.environment["CACHELAB_PACED"]
    /// The committed scenarios of one person's app (mixed-population is a shared cache's view of
    /// thirty, with no app to replay), or the flinger alone.
    static let scenarios: [String] =
        setting == "corpus" ? ScrollScenario.committed.filter { $0 != "mixed-population" } : ["flinger"]

    /// Days replayed: the first, or the first week for the people who come back less often
    /// (the weekly returner's first session is on day 4).
    static func days(of scenario: ScrollScenario) -> Int {
        min(scenario.days, scenario.name == "flinger" ? 1 : scenario.name == "weekly-returner" ? 7 : 2)
    }

    @Test(
        .enabled(if: setting != nil, "measures timing: run alone with CACHELAB_PACED=1, as .ci/run does"),
        arguments: scenarios)
    func delayedHitsAgreeLiveAndSimulated(name: String) async throws {
        // Given the scenario's first days as a prefetching list, and Nuke's tiers on an iPhone
        // SE on 3G
        var scenario = try #require(ScrollScenario.named(name))
        scenario.list = .prefetching
        scenario.days = Self.days(of: scenario)
        let full = scenario.makeTrace()
        let trace = Trace(
            name: full.name, times: full.times, keys: full.keys, sizes: full.sizes,
            events: full.events.filter { !$0.kind.isPrefetcher }, keyNames: full.keyNames,
            pixelSizes: full.pixelSizes)
        try #require(trace.count > 0)
        let client = ClientPreset.nuke.configuration(device: .iphoneSE2, network: .slow3g)
        let simulated = Replay.simulate(trace, client: client, outcomes: true)

        // When it is replayed live at twice real time, against a server answering as 3G would
        // (sped up as much), with no pause longer than a second
        var options = LiveOptions()
        options.speed = 2
        options.maxGap = 1_000
        var server = FixtureConfiguration()
        server.shape(like: .slow3g, speed: 2)
        let live = try await LiveServer.run(trace, client: client, options: options, configuration: server)

        // Then every request agrees: hits, misses and delayed hits alike, but for those within
        // the margin of their download's end, where either a hit or a delayed hit will do
        let agreement = OutcomeAgreement(
            live: live.run.outcomes ?? [], simulated: simulated, margin: options.timingMargin)
        #expect(live.failures == 0, "\(live.firstErrors)")
        #expect(agreement.isComplete, "\(name): \(agreement.firstDisagreements)")
        #expect(live.run.misses == simulated.misses && live.run.bytesDownloaded == simulated.bytesDownloaded)
        // (Left to timing: near a download's end, or after an app event with the download under
        // way, where the live replay waits for every answer; a few per cent at most.)
        #expect(agreement.undecided * 10 < trace.count, "\(name): \(agreement.undecided) requests within the margin")
        // And there were delayed hits to agree on
        if name == "flinger" { #expect(agreement.delayedBoth >= 20 && simulated.delayedHits >= 20) }
        print(
            "paced \(name): \(trace.count) requests, \(simulated.delayedHits) delayed hits simulated, \(live.run.delayedHits) live, \(agreement.delayedBoth) in both, \(agreement.undecided) within the margin"
        )
    }

    @Test func theServerShapedLikeANetworkAnswersInTheModelledTime() {
        var server = FixtureConfiguration()
        server.shape(like: .lte, speed: 2)
        // LTE: 50 ms round trip, 20 Mbit/s; twice as fast
        #expect(server.latency == .milliseconds(25) && server.bandwidth == 5_000_000)
    }

    @Test func theTimingMarginScalesWithTheSpeed() {
        // The margin scales with the speed: 25 ms of wall clock is 50 ms of trace time at 2×
        var options = LiveOptions()
        // Unpaced, downloads are handed over at their modelled ends: no margin
        #expect(options.timingMargin == 0)
        options.speed = 2
        #expect(options.timingMargin == 50_000)
        options.timingJitter = .milliseconds(10)
        options.speed = 0.5
        #expect(options.timingMargin == 5_000)
    }
}
