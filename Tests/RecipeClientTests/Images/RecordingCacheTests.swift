import CacheEngine
import CacheLab
import CacheLabRecorder
import Foundation
import Testing

@testable import RecipeClient

@Suite struct RecordingCacheTests {
    @Test func recordsHitsAtOnceAndMissesWhenTheirImageIsInserted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recording-cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try TraceRecorder(directory: folder, options: .init(hashesKeys: false))

        // Given an LRU cache of image bytes wrapped as the app's memory tier
        var cache = RecordingCache(
            Cache<String, [UInt8], LRUPolicy>(configuration: CacheConfiguration(capacity: 100)), recorder: recorder,
            source: .memory)

        // When the app misses, fetches and inserts; hits; misses and fails to fetch; misses again
        #expect(cache.value(forKey: "a", at: 1_000) == nil)
        cache.insert([UInt8](repeating: 1, count: 40), forKey: "a", size: 40, at: 1_200)
        #expect(cache.value(forKey: "a", at: 2_000)?.count == 40)
        #expect(cache.value(forKey: "b", at: 3_000) == nil)  // the fetch fails: nothing inserted
        #expect(cache.value(forKey: "c", at: 4_000) == nil)
        cache.insert([UInt8](repeating: 2, count: 70), forKey: "c", size: 70, at: 4_500)  // evicts a
        try await recorder.close()

        // Then the recording holds the miss at its lookup's time, the hit, and the second miss;
        // the failed lookup is left out
        let recording = try Recording.read(path: folder.path)
        #expect(recording.trace.keys.map { recording.trace.keyNames![Int($0)] } == ["a", "a", "c"])
        #expect(recording.trace.times == [1_000, 2_000, 4_000])
        #expect(recording.trace.sizes == [40, 40, 70])
        #expect(recording.sources == ["network": 2, "memory": 1])
        #expect(cache.count == 1 && cache.totalCost == 70)
    }
}
