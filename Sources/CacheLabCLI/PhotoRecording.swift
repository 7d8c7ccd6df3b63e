import CacheLab
import CacheLabRecorder
import FixtureServer
import Foundation

/// What `cachelab serve --record FILE` keeps: every photo request, in arrival order, through a
/// `TraceRecorder` into `FILE.parts/` (crash-safe parts), merged into `FILE` when the server stops.
final class PhotoRecording: Sendable {
    /// Keys are the photos' URLs on this origin, as the scroll scenarios name them.
    static let origin = "https://recipes.example"

    let out: String
    private let recorder: TraceRecorder
    private let started = ContinuousClock.now

    init(out: String) throws {
        self.out = out
        let parts = URL(fileURLWithPath: out + ".parts")
        if FileManager.default.fileExists(atPath: parts.path) {
            throw CLIError(
                "\(parts.path) exists: an earlier recording was not finished; recover it with `cachelab trace import \(parts.path) --out \(out)` or remove it"
            )
        }
        do {
            recorder = try TraceRecorder(directory: parts, options: TraceRecorder.Options(hashesKeys: false))
        } catch {
            throw CLIError("cannot record into \(parts.path): \(error)")
        }
    }

    /// Records one request for `photo`, now.
    var photoRequested: @Sendable (FixtureCatalog.Photo) -> Void {
        { [recorder, started] photo in
            let elapsed = started.duration(to: .now).components
            let milliseconds = elapsed.seconds * 1_000 + elapsed.attoseconds / 1_000_000_000_000_000
            recorder.recordLookup(
                Self.origin + photo.path, size: photo.size, source: .network, at: milliseconds,
                width: photo.pixels.width, height: photo.pixels.height)
        }
    }

    /// Closes the parts, merges them into `out` (whole or not at all) and removes them.
    func finish() async throws {
        let parts = recorder.directory
        do {
            _ = try await recorder.close()
            let recording = try Recording.read(path: parts.path)
            try TraceWriter.write(recording.trace, format: .cachelab, to: out)
            try FileManager.default.removeItem(at: parts)
            Output.status("recorded \(Report.grouped(recording.trace.count)) photo requests to \(out)")
        } catch {
            throw CLIError(
                "cannot write the recording to \(out): \(error); the requests are in \(parts.path) (`cachelab trace import`)"
            )
        }
    }
}
