import CacheEngine
import CacheLab
import CacheLabContracts
import CacheLabRecorder
import Foundation
import Testing

@testable import RecipeClient

/// `RecordingCache` around the engine keeps every rule of the `ImageCaching` contract, for every
/// policy: recording what it serves changes nothing of what it stores.
@Suite("The ImageCaching contract, for RecordingCache")
struct RecordingCacheContractTests {
    /// Wraps each engine in a `RecordingCache` recording into one folder.
    struct Recording: Conformer {
        let recorder: TraceRecorder

        func wrap<Base: ImageCaching<UInt64, Void>>(_ base: Base) -> any ImageCaching<UInt64, Void> {
            RecordingCache(base, recorder: recorder, source: .memory, size: { _ in 1 })
        }
    }

    @Test(arguments: ImageCachingContract.Rule.allCases, PolicyKind.allCases)
    func aRecordingCacheKeepsTheRule(_ rule: ImageCachingContract.Rule, kind: PolicyKind) async throws {
        guard rule.applies(to: kind) else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-contract-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = try TraceRecorder(directory: folder)
        let failures = ImageCachingContract.check(rule, kind, conformer: Recording(recorder: recorder))
        #expect(failures.isEmpty, "\(rule) under \(kind): \(failures)")
        _ = try await recorder.close()
    }
}
