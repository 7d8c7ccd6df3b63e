import Foundation
import Testing

@testable import CacheLab

/// `Recording` (what `cachelab trace import` reads) on hand-written parts, and the command itself
/// run as the built binary. The recorder's own files are tested with it, in CacheLabRecorderTests.
@Suite("cachelab trace import")
struct TraceImportTests {
    @discardableResult
    private static func withParts<T>(_ parts: [String: String], _ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in parts {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return try body(folder.path)
    }

    static let header = "# cachelab recording, part 1\ntime,key,size,event,source\n"

    @Test func mergesPartsInNameOrderByKeyNameAndRaisesTimesThatGoBack() throws {
        // Given two launches' parts, the second's clock set back, and a salt file beside them
        let parts = [
            "part-000002.csv": Self.header + "2.5,,,relaunch,\n2.8,bb,20,,disk\n6,aa,10,,network\n",
            "part-000001.csv": Self.header + "1,aa,10,,network\n2,,,background,\n3,aa,10,,memory\n",
            "salt": "00112233445566778899aabbccddeeff\n",
        ]
        try Self.withParts(parts) { folder in
            // When the folder is read
            let recording = try Recording.read(path: folder)

            // Then part 1 comes first, keys are one id per name across parts, and the set-back
            // times are raised to the last time before them
            #expect(
                recording.parts.map { ($0 as NSString).lastPathComponent } == ["part-000001.csv", "part-000002.csv"])
            #expect(recording.trace.keyNames == ["aa", "bb"])
            #expect(recording.trace.keys == [0, 0, 1, 0])
            #expect(recording.trace.times == [1_000, 3_000, 3_000, 6_000])
            #expect(recording.raisedTimes == 2)  // the relaunch at 2.5 s and the lookup at 2.8 s
            #expect(
                recording.trace.events == [
                    TraceEvent(position: 1, time: 2_000, kind: .background),
                    TraceEvent(position: 2, time: 3_000, kind: .relaunch),
                ])
            #expect(recording.sources == ["network": 2, "memory": 1, "disk": 1])
        }
    }

    @Test func aPartWithEventsAloneKeepsThem() throws {
        // Given a launch that showed no image between two that did
        let parts = [
            "part-000001.csv": Self.header + "1,aa,10,,network\n",
            "part-000002.csv": Self.header + "5,,,relaunch,\n6,,,background,\n",
            "part-000003.csv": Self.header + "9,,,relaunch,\n10,aa,10,,disk\n",
        ]
        try Self.withParts(parts) { folder in
            // Then its events are kept, between the requests around them
            let recording = try Recording.read(path: folder)
            #expect(recording.trace.events.map(\.kind) == [.relaunch, .background, .relaunch])
            #expect(recording.trace.events.map(\.position) == [1, 1, 1])
            #expect(recording.trace.count == 2)
        }
    }

    @Test func aFolderWithoutPartsAndABadPartAreClearErrors() throws {
        try Self.withParts(["salt": "x", "merged.csv": "time,key,size\n1,a,1\n"]) { folder in
            #expect(
                throws: TraceError.unreadable(
                    file: folder, reason: "the folder holds no part-*.csv file of a recording")
            ) {
                try Recording.read(path: folder)
            }
        }
        try Self.withParts(["part-000001.csv": Self.header + "1,aa,10,,network\n2,bb,-3,,network\n"]) { folder in
            #expect(throws: TraceError.self) { try Recording.read(path: folder) }
            do {
                _ = try Recording.read(path: folder)
            } catch {
                #expect("\(error)" == "\(folder)/part-000001.csv:4: size \"-3\" is not a positive integer of bytes")
            }
        }
    }

    @Test func aSourceNoRecorderWritesIsRefusedWithItsLine() throws {
        // Given a part whose third request names a tier the recorder never writes (line 5,
        // counting the comment and the header)
        let part = Self.header + "1,aa,10,,network\r\n2,aa,10,,memory\n3,aa,10,,cdn\n"
        try Self.withParts(["part-000001.csv": part]) { folder in
            // Then reading it is an error naming the part, the line and the value
            do {
                _ = try Recording.read(path: folder)
                Issue.record("a source of 'cdn' was read")
            } catch {
                #expect(
                    "\(error)" == "\(folder)/part-000001.csv:5: source 'cdn' is none of memory, disk, network")
            }
        }
    }

    @Test func aTraceWithoutSourcesSaysTheAppsHitsWereNotRecorded() throws {
        // Given a plain cachelab trace named as a part: no source column
        try Self.withParts(["part-000001.csv": "time,key,size\n1,aa,10\n2,aa,10\n"]) { folder in
            // When the binary imports it
            let imported = try Binary.run(["trace", "import", folder])

            // Then it reads, and the app's figures say they are not there rather than 0 %
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(try Recording.read(path: folder).sources.isEmpty)
            #expect(imported.stdout.contains("app: memory hits   not recorded (no part gives a source column)"))
            #expect(!imported.stdout.contains("0.00%"))
        }
    }

    @Test func theCommandReportsTheRecordingAndWritesATraceThatRunReplays() throws {
        let part = Self.header + "1,aa,10,,network\n2,aa,10,,memory\n3,bb,30,,network\n4,aa,10,,disk\n4.5,bb,3"
        try Self.withParts(["part-000001.csv": part]) { folder in
            // When the binary imports the folder, its last line cut short, writing the trace beside
            // the parts (where it must not be taken for one)
            let out = folder + "/merged.csv"
            let imported = try Binary.run(["trace", "import", folder, "--out", out])

            // Then it reports the lookups by tier and the dropped line, and writes the trace
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("requests           4"))
            #expect(imported.stdout.contains("app: memory hits   25.00% (1)"))
            #expect(imported.stdout.contains("partial lines      1 dropped"))
            let merged = try TraceReader.read(path: out)
            #expect(merged.count == 4 && merged.keyNames == ["aa", "bb"])

            // and `run` replays the folder itself as it replays the merged file
            let fromFolder = try Binary.run([
                "run", "--trace", folder, "--policy", "lru", "--capacity", "40", "--format", "csv",
            ])
            let fromFile = try Binary.run([
                "run", "--trace", out, "--policy", "lru", "--capacity", "40", "--format", "csv",
            ])
            #expect(fromFolder.status == 0 && fromFile.status == 0)
            // (the same row but for the first column, the trace's name)
            func figures(_ output: String) -> [Substring] {
                Array(output.split(separator: "\n")[1].split(separator: ",").dropFirst())
            }
            #expect(figures(fromFolder.stdout) == figures(fromFile.stdout))
        }
    }
}
