import Foundation
import RecipeClient

/// Holds each download of an unpaced live replay, once its bytes have arrived, until the replay
/// releases it: so the pipeline stores it when the simulator's latency model says it ends (before
/// the first request at or after that time), whatever the loopback's speed, and the run is the
/// simulator's, request by request, every time. Downloads still run at once over the network;
/// only their hand-over waits. Each is known by its URL: the pipeline runs one download of a URL
/// at a time, whichever request (a row's or the prefetcher's) started it. A cancelled download
/// (a stopped prefetch's) is never held: it stores nothing.
actor DownloadGate {
    private let clock = ContinuousClock()
    private var released: Set<String> = []
    private var held: [String: (hold: Int, waiting: CheckedContinuation<Void, Never>)] = [:]
    private var arrivals: [String: ContinuousClock.Instant] = [:]
    private var holds = 0

    /// Waits, once the bytes of the download of `url` have arrived, until it is released or its
    /// task is cancelled.
    func hold(_ url: String) async {
        guard !Task.isCancelled else { return }
        arrivals[url] = clock.now
        if released.remove(url) != nil { return }
        holds += 1
        let hold = holds
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiting in
                if Task.isCancelled { waiting.resume() } else { held[url] = (hold, waiting) }
            }
        } onCancel: {
            Task { await self.cancel(url, hold) }
        }
    }

    /// Lets the download of `url` hand its bytes over (now, or as soon as they arrive).
    func release(_ url: String) {
        if let entry = held.removeValue(forKey: url) {
            entry.waiting.resume()
        } else {
            released.insert(url)
        }
    }

    /// When the bytes of the download of `url` arrived (nil: it failed first), forgetting it.
    func arrival(of url: String) -> ContinuousClock.Instant? {
        released.remove(url)
        return arrivals.removeValue(forKey: url)
    }

    private func cancel(_ url: String, _ hold: Int) {
        guard held[url]?.hold == hold, let entry = held.removeValue(forKey: url) else { return }
        entry.waiting.resume()
    }
}

/// A downloader whose downloads wait at a `DownloadGate` once their bytes have arrived.
struct GatedDownloader: ImageDownloading {
    let base: any ImageDownloading
    let gate: DownloadGate

    func download(_ url: String) async throws -> [UInt8] {
        let bytes = try await base.download(url)
        await gate.hold(url)
        return bytes
    }
}
