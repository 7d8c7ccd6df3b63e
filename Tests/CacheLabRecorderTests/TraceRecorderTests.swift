import CacheLab
import Foundation
import Testing

@testable import CacheLabRecorder

@Suite struct TraceRecorderTests {
    // MARK: Helpers

    /// A fresh folder under the temporary directory, removed after `body`.
    private static func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    private static let urls = (0..<50).map { "https://recipes.example/photos/\($0)/small.jpg" }

    /// Records `count` lookups cycling through `urls`, one second apart, starting at `start` s.
    private static func recordLookups(_ recorder: TraceRecorder, count: Int, start: Int64 = 0) {
        for index in 0..<count {
            recorder.recordLookup(
                urls[index % urls.count], size: 1_000 + index % urls.count,
                source: TraceRecorder.Source.allCases[index % 3], at: (start + Int64(index)) * 1_000)
        }
    }

    // MARK: Hashing

    @Test func sipHashGivesTheReferenceVectors() {
        // The reference implementation's vectors: key 00 01 … 0f, messages 00 01 … (n-1).
        let hasher = SipHash24(k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908)
        let message: [UInt8] = Array(0..<15)
        [UInt8]().withUnsafeBytes { #expect(hasher.hash($0) == 0x726f_db47_dd0e_0e31) }
        message.withUnsafeBytes { #expect(hasher.hash($0) == 0xa129_ca61_49be_45e5) }
        Array(message.prefix(8)).withUnsafeBytes { #expect(hasher.hash($0) == 0x93f5_f579_9a93_2462) }
    }

    @Test func keysAreSaltedHashesStableAcrossLaunchesAndNoURLIsWritten() async throws {
        try await Self.withFolder { folder in
            // Given two launches recording into one folder, and one launch into another
            let first = try TraceRecorder(directory: folder)
            Self.recordLookups(first, count: 100)
            try await first.close()
            let second = try TraceRecorder(directory: folder)
            #expect(second.continuesRecording)
            second.recordLaunch(at: 200_000)
            Self.recordLookups(second, count: 100, start: 200)
            try await second.close()
            let other = folder.appendingPathComponent("other")
            let elsewhere = try TraceRecorder(directory: other)
            Self.recordLookups(elsewhere, count: 100)
            try await elsewhere.close()

            // Then one URL is one key across the launches, a 16-digit hash, and another salt
            // gives other keys
            let recording = try Recording.read(path: folder.path)
            let names = recording.trace.keys.map { recording.trace.keyNames![Int($0)] }
            #expect(recording.parts.count == 2)
            #expect(Set(names).count == Self.urls.count)
            #expect(names.prefix(100) == names.suffix(100))
            #expect(names.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) })
            let otherNames = try Recording.read(path: other.path).trace.keyNames!
            #expect(Set(otherNames).isDisjoint(with: names))
            #expect(recording.trace.events == [TraceEvent(position: 100, time: 200_000, kind: .relaunch)])

            // and no part holds any part of a URL
            for part in recording.parts {
                let text = try String(contentsOfFile: part, encoding: .utf8)
                #expect(!text.contains("recipes.example") && !text.contains("photos"))
            }
        }
    }

    @Test func keysKeptAsGivenArePercentEncodedWhereTheFormatNeedsIt() async throws {
        try await Self.withFolder { folder in
            let recorder = try TraceRecorder(directory: folder, options: .init(hashesKeys: false))
            recorder.recordLookup("https://a.example/x,y\"z%", size: 10, source: .network, at: 0)
            recorder.recordLookup("https://a.example/plain", size: 20, source: .memory, at: 1)
            try await recorder.close()
            let recording = try Recording.read(path: folder.path)
            #expect(recording.trace.keyNames == ["https://a.example/x%2Cy%22z%25", "https://a.example/plain"])
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("salt").path))
        }
    }

    // MARK: What is recorded

    @Test func recordsSizesTimesEventsAndSourcesInOrder() async throws {
        try await Self.withFolder { folder in
            let recorder = try TraceRecorder(directory: folder)
            recorder.recordLaunch(at: 0)  // a first launch: nothing to record
            recorder.recordLookup("a", size: 5, source: .network, at: 1_500)
            recorder.recordEvent(.background, at: 2_000)
            recorder.recordEvent(.foreground, at: 60_250)
            recorder.recordLookup("a", size: 5, source: .memory, at: 60_251)
            recorder.recordLookup("b", size: 0, source: .network, at: 60_300)  // no bytes: not a lookup
            recorder.recordLookup("b", size: 7, source: .disk, at: 59_000)  // earlier: raised
            recorder.recordEvent(.memoryWarning, at: 61_000)
            let summary = try await recorder.close()
            recorder.recordLookup("c", size: 9, source: .network, at: 70_000)  // after close: ignored

            #expect(summary.records == 6 && summary.clampedTimes == 1 && summary.parts.count == 1)
            let recording = try Recording.read(path: folder.path)
            #expect(recording.trace.times == [1_500, 60_251, 60_251])
            #expect(recording.trace.sizes == [5, 5, 7])
            #expect(recording.trace.keys == [0, 0, 1])
            #expect(recording.trace.events.map(\.kind) == [.background, .foreground, .memoryWarning])
            #expect(recording.trace.events.map(\.position) == [1, 1, 3])
            #expect(recording.sources == ["network": 1, "memory": 1, "disk": 1])
        }
    }

    @Test func lookupsFromManyThreadsAreAllRecordedInAFileWhoseTimesNeverGoBack() async throws {
        try await Self.withFolder { folder in
            // Given four threads recording their own rising times into small buffers
            let recorder = try TraceRecorder(directory: folder, options: .init(bufferSize: 256))
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for index in 0..<2_500 {
                            recorder.recordLookup(
                                "w\(worker)-\(index % 100)", size: 1 + index, source: .disk, at: Int64(index))
                        }
                    }
                }
            }
            let summary = try await recorder.close()

            // Then every lookup is in the part, whose times never go back (buffers reach the
            // writer in the order their records took the lock), so it imports
            #expect(summary.records == 10_000)
            let recording = try Recording.read(path: folder.path)
            #expect(recording.trace.count == 10_000)
            #expect(zip(recording.trace.times, recording.trace.times.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    // MARK: Files

    @Test func rotatesPartsAtTheSizeLimitAndImportsThemAsOneTrace() async throws {
        try await Self.withFolder { folder in
            // Given small buffers and a 4 KB part limit
            let recorder = try TraceRecorder(directory: folder, options: .init(bufferSize: 256, partSize: 4_096))
            Self.recordLookups(recorder, count: 2_000)
            let summary = try await recorder.close()

            // Then there are many parts, none much over the limit, and together they are the lookups
            #expect(summary.parts.count > 10)
            for part in summary.parts {
                let size = try FileManager.default.attributesOfItem(atPath: part.path)[.size] as! Int
                #expect(size <= 4_096 + 256 + 64, "\(part.lastPathComponent): \(size) bytes")
            }
            let recording = try Recording.read(path: folder.path)
            #expect(recording.parts.count == summary.parts.count)
            #expect(recording.trace.count == 2_000)
            #expect(recording.trace.times == (0..<2_000).map { Int64($0) * 1_000 })
            #expect(recording.trace.sizes == (0..<2_000).map { 1_000 + $0 % Self.urls.count })
        }
    }

    @Test func aPartialLastLineIsDroppedAndCountedAndTheRestRead() async throws {
        try await Self.withFolder { folder in
            // Given a recording whose last write a crash cut short
            let recorder = try TraceRecorder(directory: folder)
            Self.recordLookups(recorder, count: 300)
            let part = try await recorder.close().parts[0]
            let handle = try FileHandle(forWritingTo: part)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("301,7f3a".utf8))
            try handle.close()

            // Then the import drops that line, says so, and keeps the 300 before it
            let recording = try Recording.read(path: folder.path)
            #expect(recording.droppedPartialLines == 1)
            #expect(recording.trace.count == 300)
        }
    }

    @Test func aMalformedPartIsAnErrorNamingThePartAndLine() async throws {
        try await Self.withFolder { folder in
            let recorder = try TraceRecorder(directory: folder)
            Self.recordLookups(recorder, count: 10)
            let part = try await recorder.close().parts[0]
            var text = try String(contentsOf: part, encoding: .utf8)
            text = text.replacingOccurrences(of: "\n5,", with: "\nfive,")
            try text.write(to: part, atomically: true, encoding: .utf8)
            #expect(throws: TraceError.self) { try Recording.read(path: folder.path) }
            do {
                _ = try Recording.read(path: folder.path)
            } catch {
                #expect("\(error)".hasPrefix(part.path + ":8: time \"five\""), "\(error)")
            }
        }
    }

    @Test func refusesAFolderItCannotUse() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-file-\(UUID())")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: RecorderError.self) { try TraceRecorder(directory: file) }
    }
}
