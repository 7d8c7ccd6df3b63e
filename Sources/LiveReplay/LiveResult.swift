import CacheLab
import RecipeClient

/// What a live replay measured.
public struct LiveResult: Sendable {
    /// The same counts as a simulated run, from the live outcomes; `outcomes` holds each one.
    /// `bytesDownloaded` is what the client received from the network, `latency` wall-clock.
    public var run: RunResult
    /// The first few errors, in trace order.
    public var firstErrors: [String] = []
    /// The pipeline's own counts, summed over launches.
    public var pipeline = ImagePipeline.Stats()
    /// Wall-clock seconds from the first request to the last answer.
    public var seconds = 0.0
    /// Faults the server injected during the run, by `FaultKind.rawValue`.
    public var faultsInjected: [String: Int] = [:]
    /// Images the pipeline answered with that were not a whole image (`ImageFormat.whole`), from
    /// any tier: every answer is checked, and anything but 0 is a bug.
    public var notWhole = 0

    public var requestsPerSecond: Double { seconds > 0 ? Double(run.requests) / seconds : 0 }
    /// What only a live run measures: failures, the server's counts, latency by source.
    public var live: LiveMeasurements { run.live ?? LiveMeasurements() }
    /// Requests whose download failed.
    public var failures: Int { live.failures }
    /// Body bytes the server counted during the run.
    public var serverBytes: Int { live.serverBytes }
}
