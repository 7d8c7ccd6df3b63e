import CacheLabFuzzing
import CacheLabTestSupport
import Foundation
import Testing

/// Replays the fuzzers' kept corpus: the seeds, every input that once crashed or broke a
/// property (kept after the fix), and what `scripts/fuzz TARGET --keep` merged in because it
/// reached code nothing else did. Each must pass the target's checks, as the fuzzer demands.
@Suite struct FuzzCorpusTests {
    @Test(arguments: FuzzTarget.allCases)
    func everyKeptInputPassesItsChecks(target: FuzzTarget) throws {
        // Given the kept corpus of the target
        let folder = repositoryRoot.appendingPathComponent("Tests/FuzzCorpus/\(target.rawValue)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count >= 4, "the kept corpus of \(target.rawValue) is missing")

        // When each input is checked, then none breaks a property (or crashes the test)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            let problems = target.check(bytes)
            #expect(problems.isEmpty, "\(target.rawValue)/\(name): \(problems.joined(separator: "; "))")
        }
    }
}
