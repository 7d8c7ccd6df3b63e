import CacheEngine
import CacheLabTestSupport
import Foundation
import Testing

@testable import CacheLab

/// Traces read as streams, a chunk at a time, in every format, plain and zstd-compressed: the
/// same requests, events and counts as the trace read whole, at any chunk size.
@Suite("Streamed traces")
struct StreamingTests {
    /// The chunk sizes every comparison runs at: one request, a size that splits event runs, and
    /// the default.
    static let chunkSizes = [1, 7, RequestChunk.defaultCapacity]

    /// The committed scroll-trace corpus.
    static let corpus: [String] = {
        let folder = SharedFixtures.packageRoot + "/traces"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted().map { folder + "/" + $0 }
    }()

    /// A folder of its own, removed by `remove()`.
    struct Scratch {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-stream-\(UUID())").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
        func file(_ name: String) -> String { path + "/" + name }
    }

    /// Reads a whole stream at a chunk size.
    static func readAll(_ path: String, chunk: Int, columns: CSVColumns? = nil) throws -> Trace {
        try TraceReader.open(path: path, columns: columns).readAll(chunkCapacity: chunk)
    }

    /// The cells every comparison replays: single tiers of three orders (one with a lifetime, one
    /// a memory tier emptied by relaunches) and a client of two tiers reacting to every event.
    static func cells(capacity: Int) -> [RunCell] {
        [
            .simulate(RunConfiguration(policy: .lru, capacity: capacity)),
            .simulate(RunConfiguration(policy: .s3fifo, capacity: capacity, ttl: 86_400_000)),
            .simulate(RunConfiguration(policy: .arc, capacity: capacity, tier: .memory)),
            .client(ClientPreset.nuke.configuration(ram: 64 * capacity)),
        ]
    }

    @Test("the corpus streams, plain and .zst, to the counts of the trace read whole")
    func corpusStreamsToTheSameCounts() throws {
        try #require(Self.corpus.count == 8)
        let scratch = try Scratch()
        defer { scratch.remove() }
        for path in Self.corpus {
            // Given the trace read whole and replayed in memory (the reference)
            let whole = try TraceReader.read(path: path)
            let capacity = TraceStatistics(whole).workingSetBytes / 5
            let expected = RunPlan.replay(whole, Self.cells(capacity: capacity), workers: 1).map(\.run)

            // And the same file compressed
            let compressed = scratch.file((path as NSString).lastPathComponent + ".zst")
            try TraceWriter.write(whole, format: .cachelab, to: compressed)

            for file in [path, compressed] {
                for size in Self.chunkSizes {
                    // When it is read as a stream, a chunk at a time
                    let streamed = try Self.readAll(file, chunk: size)
                    #expect(streamed.keys == whole.keys && streamed.times == whole.times, "\(file) at \(size)")
                    #expect(streamed.sizes == whole.sizes && streamed.events == whole.events, "\(file) at \(size)")
                    #expect(streamed.keyNames == whole.keyNames, "\(file) at \(size)")

                    // And replayed from the file by a plan, on one core and on two
                    for workers in [1, 2] {
                        var plan = RunPlan(source: .file(file), cells: Self.cells(capacity: capacity))
                        plan.chunkCapacity = size
                        let outcome = try plan.execute(workers: workers)
                        // Then every count is the same (the name aside: the file's)
                        #expect(outcome.requests == whole.count)
                        for (got, want) in zip(outcome.outputs.map(\.run), expected) {
                            #expect(Self.counts(got) == Self.counts(want), "\(file) at \(size) on \(workers)")
                        }
                    }
                }
            }
        }
    }

    @Test(
        "libCacheSim's three encodings stream, plain and .zst, at every chunk size",
        .enabled(if: SharedFixtures.tracesAvailable))
    func sharedTracesStreamInEveryFormat() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let files: [(String, CSVColumns?)] = [
            ("cloudPhysicsIO.oracleGeneral.bin", nil),
            ("cloudPhysicsIO.csv", try CSVColumns(parsing: "time=2,id=5,size=4")),
            ("cloudPhysicsIO.txt", nil),
        ]
        for (name, columns) in files {
            let path = try #require(SharedFixtures.trace(name))
            let whole = try TraceReader.read(path: path, columns: columns)
            // The .zst file: the bytes of the original, compressed as the zstd command would
            let compressed = scratch.file(name + ".zst")
            try Self.compress(path, to: compressed)
            for file in [path, compressed] {
                for size in Self.chunkSizes {
                    let streamed = try Self.readAll(file, chunk: size, columns: columns)
                    #expect(streamed.keys == whole.keys, "\(file) at \(size)")
                    #expect(streamed.sizes == whole.sizes && streamed.times == whole.times, "\(file) at \(size)")
                }
            }
            // And every cell counts the same replayed from either file, at every chunk size (Belady's
            // next uses from the oracleGeneral field, or from a pass for the text formats)
            let capacity = TraceStatistics(whole).workingSet(in: .unit) / 10
            let cells: [RunCell] = [PolicyKind.lru, .s3fifo, .arc, .belady].map {
                .simulate(RunConfiguration(policy: $0, capacity: capacity, sizeMode: .unit), latency: false)
            }
            let expected = RunPlan.replay(whole, cells, workers: 1).map { Self.counts($0.run) }
            for file in [path, compressed] {
                for size in Self.chunkSizes {
                    var plan = RunPlan(source: .file(file, columns: columns), cells: cells)
                    plan.chunkCapacity = size
                    let outcome = try plan.execute(workers: 2)
                    #expect(outcome.requests == whole.count, "\(file) at \(size)")
                    #expect(outcome.outputs.map { Self.counts($0.run) } == expected, "\(file) at \(size)")
                }
            }
        }
    }

    @Test("events at the edges of chunks keep their places", arguments: [1, 2, 3, 7])
    func eventsAtChunkBoundariesKeepTheirPlaces(chunk: Int) throws {
        // Given a trace with events first, in runs, between every request and last
        var trace = Trace(name: "events.csv", keyNames: ["a", "b", "c"])
        trace.appendEvent(.relaunch, time: 0)
        trace.appendEvent(.foreground, time: 0)
        for index in 0..<12 {
            trace.append(time: Int64(index) * 1000, key: UInt64(index % 3), size: 10 + index)
            if index % 4 == 1 { trace.appendEvent(.background, time: Int64(index) * 1000 + 1) }
            if index % 5 == 2 {
                trace.appendEvent(.memoryWarning, time: Int64(index) * 1000 + 2)
                trace.appendEvent(.relaunch, time: Int64(index) * 1000 + 3)
            }
        }
        trace.appendEvent(.background, time: 20_000)
        trace.appendEvent(.relaunch, time: 20_001)
        let bytes = try TraceWriter.bytes(trace, format: .cachelab)

        // When it is read a chunk at a time, and replayed from the chunks
        let streamed = try TraceReader.open(bytes: bytes, name: "events.csv").readAll(chunkCapacity: chunk)

        // Then the events are where they were
        #expect(streamed.events == trace.events)
        #expect(streamed.keys == trace.keys)
        // And replayed by a plan, in memory and streamed from the file, plain and compressed, the
        // counts are those of the trace replayed whole
        let scratch = try Scratch()
        defer { scratch.remove() }
        let plain = scratch.file("events.csv")
        let compressed = scratch.file("events.csv.zst")
        try Data(bytes).write(to: URL(fileURLWithPath: plain))
        try Self.compress(bytes, to: compressed)
        let whole = RunPlan.replay(trace, Self.cells(capacity: 25), workers: 1)
        #expect(whole.allSatisfy { $0.run.relaunches == 4 })
        for source in [TraceSource(trace), .file(plain), .file(compressed)] {
            for workers in [1, 2] {
                var plan = RunPlan(source: source, cells: Self.cells(capacity: 25))
                plan.chunkCapacity = chunk
                let chunked = try plan.execute(workers: workers)
                #expect(
                    chunked.outputs.map { Self.counts($0.run) } == whole.map { Self.counts($0.run) },
                    "\(source.name) on \(workers)")
            }
        }
    }

    @Test("a generated trace streams: the same requests as the trace made whole")
    func generatorsStream() throws {
        let parameters = ZipfParameters(requests: 50_000, objects: 3_000, alpha: 0.9, seed: 4, sizes: .images)
        let whole = SyntheticTrace.zipf(parameters)
        let stream = ZipfStream(parameters)
        var chunk = RequestChunk(capacity: 7)
        var keys: [UInt64] = []
        while try stream.next(into: &chunk) { chunk.withBatch { keys += $0.keys } }
        #expect(keys == whole.keys)
        // Replayed by a plan from the generator, at every chunk size, the counts are the whole
        // trace's
        let cells = Self.cells(capacity: TraceStatistics(whole).workingSetBytes / 10)
        let expected = RunPlan.replay(whole, cells, workers: 1).map { Self.counts($0.run) }
        for size in Self.chunkSizes {
            var plan = RunPlan(source: TraceSource(.zipf(parameters)), cells: cells)
            plan.chunkCapacity = size
            #expect(try plan.execute(workers: 2).outputs.map { Self.counts($0.run) } == expected, "at \(size)")
        }
        // Images: most photos small, some large, within their ranges
        let small = whole.sizes.filter { (6_000...16_000).contains($0) }.count
        let large = whole.sizes.filter { (50_000...160_000).contains($0) }.count
        #expect(small + large == whole.count && small > large)
    }

    // MARK: Bad input

    @Test("a broken .zst names its file and the compressed byte where it broke")
    func brokenCompressionIsNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let trace = TraceFixtures.makeNumericTrace(count: 20_000)
        let good = scratch.file("good.oracleGeneral.zst")
        try TraceWriter.write(trace, format: .oracleGeneral, to: good)
        let compressed = try Array(Data(contentsOf: URL(fileURLWithPath: good)))
        #expect(compressed.count > 100)

        // A truncated file: its last frame cut short
        let truncated = scratch.file("truncated.oracleGeneral.zst")
        try Data(compressed.prefix(compressed.count / 2)).write(to: URL(fileURLWithPath: truncated))
        Self.expectBroken(truncated, saying: "truncated")

        // A corrupt frame: bytes flipped in the middle
        var flipped = compressed
        for index in stride(from: compressed.count / 3, to: compressed.count / 3 + 64, by: 1) { flipped[index] ^= 0x5A }
        let corrupt = scratch.file("corrupt.oracleGeneral.zst")
        try Data(flipped).write(to: URL(fileURLWithPath: corrupt))
        Self.expectBroken(corrupt, saying: "")

        // A file with a .zst name that is not zstd at all, and one too short to tell
        let plain = scratch.file("plain.oracleGeneral.zst")
        try Data(try TraceWriter.bytes(trace, format: .oracleGeneral)).write(to: URL(fileURLWithPath: plain))
        Self.expectBroken(plain, saying: "not zstd")
        let tiny = scratch.file("tiny.oracleGeneral.zst")
        try Data([0x28, 0xB5]).write(to: URL(fileURLWithPath: tiny))
        Self.expectBroken(tiny, saying: "2 bytes, too few for a zstd frame")
    }

    @Test("a broken .zst names the requests read before it, whatever the format and chunk size")
    func brokenCompressionNamesTheRequestsBeforeIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let trace = TraceFixtures.makeNumericTrace(count: 40_000)
        for format in [TraceFormat.oracleGeneral, .cachelab, .txt] {
            let extensions: [TraceFormat: String] = [.oracleGeneral: ".oracleGeneral", .cachelab: ".csv", .txt: ".txt"]
            let good = scratch.file("good" + extensions[format]!)
            try TraceWriter.write(trace, format: format, to: good + ".zst")
            let compressed = try Array(Data(contentsOf: URL(fileURLWithPath: good + ".zst")))
            let truncated = scratch.file("cut-" + (good as NSString).lastPathComponent + ".zst")
            try Data(compressed.prefix(compressed.count * 2 / 3)).write(to: URL(fileURLWithPath: truncated))
            // The requests before the break do not depend on how many a chunk holds
            var read: Set<Int> = []
            for size in [7, 1_000, RequestChunk.defaultCapacity] {
                do {
                    _ = try Self.readAll(truncated, chunk: size)
                    Issue.record("\(truncated) was read")
                } catch {
                    guard case .brokenCompression(_, _, let requests?, _) = error as? TraceError else {
                        Issue.record("\(format): \(error)")
                        continue
                    }
                    #expect(requests > 0 && requests < trace.count, "\(format) at \(size): \(requests)")
                    #expect("\(error)".contains(", after request \(requests): "), "\(error)")
                    read.insert(requests)
                }
            }
            #expect(read.count == 1, "\(format): \(read)")
        }
    }

    @Test("a compressed stream that ends inside a record names the record")
    func aStreamEndingInsideARecordNamesIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let trace = TraceFixtures.makeNumericTrace(count: 100)
        var bytes = try TraceWriter.bytes(trace, format: .oracleGeneral)
        bytes.removeLast(10)
        let path = scratch.file("short.oracleGeneral.zst")
        try Self.compress(bytes, to: path)
        #expect(throws: TraceError.truncatedRecord(file: path, record: 100, bytes: 14, recordSize: 24)) {
            _ = try Self.readAll(path, chunk: 7)
        }
    }

    static func expectBroken(_ path: String, saying words: String) {
        do {
            _ = try readAll(path, chunk: 1_000)
            Issue.record("\(path) was read")
        } catch {
            guard let error = error as? TraceError, case .brokenCompression(let file, let offset, _, let reason) = error
            else {
                Issue.record("\(path): \(error)")
                return
            }
            #expect(file == path && offset >= 0)
            #expect(words.isEmpty || reason.contains(words), "\(reason)")
            #expect(error.description.hasPrefix(path + ": compressed byte "))
        }
    }

    // MARK: Next uses

    @Test("Belady takes its next uses from the oracleGeneral field, or from a pass to a temporary file")
    func nextUsesFromTheFileOrFromAPass() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let trace = SyntheticTrace.zipf(requests: 30_000, objects: 2_000, alpha: 0.8, seed: 11)
        let cells: [RunCell] = [1, 5, 20].map {
            .simulate(
                RunConfiguration(policy: .belady, capacity: TraceStatistics(trace).workingSetBytes * $0 / 100),
                latency: false)
        }
        let expected = RunPlan.replay(trace, cells, workers: 1).map(\.run.hits)
        for format in [TraceFormat.oracleGeneral, .csv, .txt] {
            let path = scratch.file("belady." + (format == .oracleGeneral ? "oracleGeneral.zst" : format.rawValue))
            try TraceWriter.write(trace, format: format, to: path)
            var source = TraceSource.file(path, columns: format == .csv ? TraceWriter.csvColumns : nil)
            // txt has no sizes: Belady in unit terms of its own; compare with the txt trace whole
            let want =
                format == .txt
                ? RunPlan.replay(try TraceReader.read(path: path), cells, workers: 1).map(\.run.hits) : expected
            for computes in [false, true] {
                source.computesNextUses = computes
                var plan = RunPlan(source: source, cells: cells)
                plan.chunkCapacity = 1_000
                #expect(
                    try plan.execute(workers: 2).outputs.map(\.run.hits) == want, "\(format), computed: \(computes)")
            }
        }
    }

    @Test("an oracleGeneral file without next uses is refused for Belady, and computed on request")
    func anOracleFileWithoutNextUsesIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var bytes = try TraceWriter.bytes(TraceFixtures.makeNumericTrace(count: 50), format: .oracleGeneral)
        // Zero every next_access_vtime, as a tool that does not fill it would
        for record in 0..<50 { for byte in 16..<24 { bytes[record * 24 + byte] = 0 } }
        let path = scratch.file("blank.oracleGeneral.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let cell = RunCell.simulate(RunConfiguration(policy: .belady, capacity: 10, sizeMode: .unit))
        #expect {
            _ = try RunPlan(source: .file(path), cells: [cell]).execute(workers: 1)
        } throws: { error in
            "\(error)".contains("\(path): record 1: next_access_vtime 0") && "\(error)".contains("--compute-next-uses")
        }
        var source = TraceSource.file(path)
        source.computesNextUses = true
        let computed = try RunPlan(source: source, cells: [cell]).execute(workers: 1).outputs[0].run
        let whole = Replay.simulate(
            try TraceReader.read(path: path), RunConfiguration(policy: .belady, capacity: 10, sizeMode: .unit))
        #expect(computed.hits == whole.hits)
    }

    // MARK: Writing

    @Test(
        "a stream is written a chunk at a time to the bytes the trace in memory gives", arguments: TraceFormat.allCases)
    func streamingWriterWritesTheSameBytes(format: TraceFormat) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try #require(Self.corpus.first { $0.hasSuffix("/weekly-returner.csv") })
        let whole = try TraceReader.read(path: path)
        var named = whole
        named.name = "weekly-returner.csv"
        let expected = try TraceWriter.bytes(named, format: format)
        for suffix in ["", ".zst"] {
            let out = scratch.file("out.\(format.rawValue)\(suffix)")
            let written = try TraceWriter.write(.file(path), format: format, to: out)
            #expect(
                written
                    == TraceWriter.Written(requests: whole.count, events: format == .cachelab ? whole.events.count : 0))
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: out)))
            let plain = suffix.isEmpty ? bytes : try Self.decompress(bytes, name: "out.zst")
            #expect(plain == expected, "\(format)\(suffix)")
            // Nothing is left beside it
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).allSatisfy { !$0.hasPrefix(".") })
        }
    }

    @Test("a write that fails leaves nothing, and no earlier file is touched")
    func aFailedWriteLeavesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let out = scratch.file("out.csv")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: out))
        var trace = Trace(name: "back-in-time")
        for index in 0..<100_000 { trace.append(time: index == 90_000 ? 0 : Int64(index), key: 1, size: 1) }
        #expect(throws: TraceError.self) { try TraceWriter.write(trace, format: .cachelab, to: out) }
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out.csv"])
    }

    // MARK: Helpers

    /// The figures a run's row reports, but its trace's name.
    static func counts(_ result: RunResult) -> [String] {
        var row = Report.csvRow(result).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        row.removeFirst()
        return row
    }

    static func compress(_ path: String, to out: String) throws {
        try compress(Array(Data(contentsOf: URL(fileURLWithPath: path))), to: out)
    }

    /// zstd-compresses bytes with cachelab's own writer's sink.
    static func compress(_ bytes: [UInt8], to out: String) throws {
        let sink = try ZstdSink(try FileSink(path: out), name: out)
        try bytes.withUnsafeBytes { try sink.write($0) }
        try sink.finish()
    }

    static func decompress(_ bytes: [UInt8], name: String) throws -> [UInt8] {
        let source = try ZstdBytes(MemoryBytes(bytes, name: name))
        var out: [UInt8] = []
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { block.deallocate() }
        while true {
            let count = try source.read(into: block)
            if count == 0 { return out }
            out += block[..<count]
        }
    }
}
