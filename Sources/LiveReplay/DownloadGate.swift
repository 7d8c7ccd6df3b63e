import Foundation
import RecipeClient

/// Holds each download of an unpaced live replay, once its bytes have arrived, until the replay
/// releases it: so the pipeline stores it when the simulator's latency model says it ends (before
/// the first request at or after that time), whatever the loopback's speed, and the run is the
/// simulator's, request by request, every time. Downloads still run at once over the network;
/// only their hand-over waits. Each is known by the trace position of the request that started it
/// (`LiveDriver` makes each request under `DownloadGate.$position`, which the pipeline's download
/// task inherits).
actor DownloadGate {
    /// The trace position of the request being made: its download's name at the gate.
    @TaskLocal static var position: Int?

    private let clock = ContinuousClock()
    private var released: Set<Int> = []
    private var held: [Int: CheckedContinuation<Void, Never>] = [:]
    private var arrivals: [Int: ContinuousClock.Instant] = [:]

    /// Waits, once the bytes of download `position` have arrived, until it is released.
    func hold(_ position: Int) async {
        arrivals[position] = clock.now
        if released.remove(position) != nil { return }
        await withCheckedContinuation { held[position] = $0 }
    }

    /// Lets download `position` hand its bytes over (now, or as soon as they arrive).
    func release(_ position: Int) {
        if let waiting = held.removeValue(forKey: position) {
            waiting.resume()
        } else {
            released.insert(position)
        }
    }

    /// When the bytes of download `position` arrived (nil: it failed first), forgetting it.
    func arrival(of position: Int) -> ContinuousClock.Instant? {
        released.remove(position)
        return arrivals.removeValue(forKey: position)
    }
}

/// A downloader whose downloads wait at a `DownloadGate` once their bytes have arrived.
struct GatedDownloader: ImageDownloading {
    let base: any ImageDownloading
    let gate: DownloadGate

    func download(_ url: String) async throws -> [UInt8] {
        let bytes = try await base.download(url)
        if let position = DownloadGate.position { await gate.hold(position) }
        return bytes
    }
}
