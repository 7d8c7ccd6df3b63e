import Foundation
import Testing

@testable import CacheLab

@Suite struct TraceWriterTests {
    @Test(arguments: TraceFormat.allCases)
    func roundTripsKeysSizesAndTimes(format: TraceFormat) throws {
        // Given a trace with whole-second times and numeric ids
        let trace = TraceFixtures.makeNumericTrace()

        // When it is written and read back
        let bytes = try TraceWriter.bytes(trace, format: format)
        let columns = format == .csv ? TraceWriter.csvColumns : nil
        let back = try TraceReader.read(bytes: bytes, name: "back", format: format, columns: columns)

        // Then every request survives (txt keeps only the ids)
        #expect(back.count == trace.count)
        switch format {
        case .cachelab:
            let names = try #require(back.keyNames)
            #expect(back.keys.map { names[Int($0)] } == trace.keys.map { String($0) })
        default:
            #expect(back.keys == trace.keys)
        }
        if format != .txt {
            #expect(back.sizes == trace.sizes)
            #expect(back.times == trace.times)
        }
    }

    @Test func roundTripsKeyNamesEventsAndMillisecondsInCachelabsFormat() throws {
        // Given a trace with string keys, millisecond times and events
        let trace = TraceFixtures.makeNamedTrace()

        // When it is written as cachelab and read back
        let back = try TraceReader.read(bytes: try TraceWriter.bytes(trace, format: .cachelab), name: "back.csv")

        // Then the same strings are requested at the same times with the same sizes and events
        let names = try #require(trace.keyNames)
        let backNames = try #require(back.keyNames)
        #expect(back.keys.map { backNames[Int($0)] } == trace.keys.map { names[Int($0)] })
        #expect(back.times == trace.times)
        #expect(back.sizes == trace.sizes)
        #expect(back.events == trace.events)
        #expect(back.events.last?.position == back.count)
    }

    @Test func writesTheCachelabFormatAsDocumented() throws {
        // Given two requests around an event
        var trace = Trace(name: "demo", keyNames: ["a.jpg", "b.jpg"])
        trace.append(time: 0, key: 1, size: 10)
        trace.appendEvent(.memoryWarning, time: 1)
        trace.appendEvent(.favourite, time: 2, key: 0)
        trace.append(time: 86_400_500, key: 0, size: 20)

        // Then the file is a comment, a header and one line each
        let text = String(decoding: try TraceWriter.bytes(trace, format: .cachelab), as: UTF8.self)
        #expect(
            text == """
                # cachelab trace: demo
                time,key,size,event
                0,b.jpg,10,
                0.001,,,memory_warning
                0.002,a.jpg,,favourite
                86400.5,a.jpg,20,

                """)
    }

    @Test func writesLibCacheSimCSVWithAHeaderItsColumnSpecReads() throws {
        var trace = Trace(name: "demo")
        trace.append(time: 1999, key: 7, size: 512)
        let text = String(decoding: try TraceWriter.bytes(trace, format: .csv), as: UTF8.self)
        // Milliseconds are truncated to libCacheSim's whole seconds.
        #expect(text == "time,obj_id,obj_size\n1,7,512\n")
        #expect(TraceWriter.csvColumns.description == "time=1,id=2,size=3")
        // Without a spec the header names the columns too.
        #expect(try TraceReader.read(bytes: Array(text.utf8), name: "demo.csv").times == [1000])
    }

    @Test func writesNextAccessAsTheOneBasedIndexOfTheNextRequest() throws {
        // Given ids 5, 6, 5, 7, 6, 5
        var trace = Trace(name: "demo")
        for key: UInt64 in [5, 6, 5, 7, 6, 5] {
            trace.append(time: 0, key: key, size: 1)
        }

        // When written as oracleGeneral
        let bytes = try TraceWriter.bytes(trace, format: .oracleGeneral)

        // Then each record points at the next request for its id, counted from 1, or -1
        let nextAccess = (0..<trace.count).map { record in
            bytes.withUnsafeBytes {
                Int64(littleEndian: $0.loadUnaligned(fromByteOffset: record * 24 + 16, as: Int64.self))
            }
        }
        #expect(nextAccess == [3, 5, 6, -1, -1, -1])
    }

    @Test func refusesAKeyTheCachelabFormatCannotHold() {
        var trace = Trace(name: "demo", keyNames: ["a,b"])
        trace.append(time: 0, key: 0, size: 1)
        #expect(
            throws: TraceError.unwritable(
                file: "demo", reason: "key \"a,b\" holds a comma, which the cachelab format cannot hold")
        ) {
            try TraceWriter.bytes(trace, format: .cachelab)
        }
    }

    @Test func refusesTimesTheFormatCannotHold() {
        var trace = Trace(name: "demo")
        trace.append(time: 2000, key: 1, size: 1)
        trace.append(time: 1000, key: 2, size: 1)
        #expect(
            throws: TraceError.unwritable(
                file: "demo", reason: "request 1 goes back in time, which the cachelab format forbids")
        ) {
            try TraceWriter.bytes(trace, format: .cachelab)
        }
        var late = Trace(name: "demo")
        late.append(time: (Int64(UInt32.max) + 1) * 1000, key: 1, size: 1)
        #expect(throws: TraceError.self) {
            try TraceWriter.bytes(late, format: .oracleGeneral)
        }
    }

    @Test(arguments: [
        (0 as Int64, "0"), (1, "0.001"), (10, "0.01"), (1500, "1.5"), (86_400_000, "86400"), (-250, "-0.25"),
    ])
    func formatsMillisecondsAsSeconds(milliseconds: Int64, text: String) {
        #expect(TraceWriter.seconds(fromMilliseconds: milliseconds) == text)
    }

    @Test(arguments: TraceFormat.allCases)
    func writesAFileThatReadsBack(format: TraceFormat) throws {
        // Given a file path with the format's extension
        let suffix = [
            TraceFormat.cachelab: "cachelab.csv", .csv: "csv", .txt: "txt", .oracleGeneral: "oracleGeneral.bin",
        ]
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("cachelab-\(UUID().uuidString).\(suffix[format]!)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let trace = TraceFixtures.makeNumericTrace(count: 50)

        // When written and read back with the format inferred
        try TraceWriter.write(trace, format: format, to: path)
        let back = try TraceReader.read(path: path)

        // Then it is the same trace, named after the file
        #expect(back.count == 50)
        #expect(back.name == (path as NSString).lastPathComponent)
        #expect((back.keyNames != nil) == (format == .cachelab))
    }

    @Test func reportsAFileItCannotWrite() {
        var trace = Trace(name: "demo")
        trace.append(time: 0, key: 1, size: 1)
        #expect(
            throws: TraceError.unwritable(file: "/nonexistent-dir/x.txt", reason: "No such file or directory")
        ) {
            try TraceWriter.write(trace, format: .txt, to: "/nonexistent-dir/x.txt")
        }
    }

    @Test func reportsAFileItCannotRead() {
        #expect(throws: TraceError.unreadable(file: "/nonexistent-dir/x.txt", reason: "No such file or directory")) {
            try TraceReader.read(path: "/nonexistent-dir/x.txt")
        }
    }
}
