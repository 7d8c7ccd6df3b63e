import CacheEngine
import Histogram

/// Builds a single-tier cell's replay for the registry's policy, or for one given.
struct SimulatedRunFactory: PolicyBody {
    let configuration: RunConfiguration
    let latency: Bool
    let context: CellContext

    func run<Policy: EvictionPolicy>(_ policy: Policy.Type) -> CellReplay {
        if latency {
            let recorder = HistogramRecorder(LatencyModel(network: configuration.network, tier: configuration.tier))
            return make(policy, recorder)
        }
        return make(policy, NoLatency())
    }

    private func make<Policy: EvictionPolicy, Recorder: LatencyRecording>(
        _ policy: Policy.Type, _ recorder: Recorder
    ) -> CellReplay {
        let run = SimulatedRun<Policy, Recorder>(configuration: configuration, recorder: recorder, context: context)
        return CellReplay(replay: { run.replay($0) }, finish: { .run(run.finish()) })
    }
}
