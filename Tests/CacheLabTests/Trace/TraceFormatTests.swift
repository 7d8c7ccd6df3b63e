import Testing

@testable import CacheLab

@Suite struct TraceFormatTests {
    @Test(arguments: [
        ("traces/cloudPhysicsIO.oracleGeneral.bin", TraceFormat.oracleGeneral),
        ("x.oracleGeneral", .oracleGeneral),
        ("X.ORACLEGENERAL.BIN", .oracleGeneral),
        ("ids.txt", .txt),
        ("requests.csv", .csv),
    ])
    func infersTheFormatFromTheExtension(path: String, format: TraceFormat) {
        #expect(TraceFormat.inferred(fromPath: path) == format)
    }

    @Test(arguments: ["trace", "trace.bin", "trace.json", "csv"])
    func infersNothingFromAnUnknownExtension(path: String) {
        #expect(TraceFormat.inferred(fromPath: path) == nil)
    }

    @Test func parsesTheCLINames() {
        #expect(TraceFormat(rawValue: "oracle-general") == .oracleGeneral)
        #expect(TraceFormat.allCases.map(\.rawValue) == ["cachelab", "csv", "txt", "oracle-general"])
    }

    @Test func readsACSVFileWithCachelabsHeaderAsCachelab() throws {
        // Given a .csv file that starts with comments and cachelab's header
        let text = "# made by hand\n#\ntime,key,size\n1,a.jpg,10\n"

        // When it is read without a format
        let trace = try TraceFixtures.read(text, name: "mine.csv")

        // Then its string keys were interned
        #expect(trace.keyNames == ["a.jpg"])
        #expect(trace.times == [1000])
    }

    @Test func sniffsCachelabsHeaderInAnyColumnOrder() throws {
        let text = "size,event,key,time\n10,,a.jpg,1\n"
        #expect(
            try TraceReader.resolveFormat(bytes: Array(text.utf8), file: "x.csv", format: nil, columns: nil)
                == .cachelab)
        #expect(try TraceFixtures.read(text).keyNames == ["a.jpg"])
    }

    @Test func readsACSVFileWithAnotherHeaderAsLibCacheSimCSV() throws {
        let text = "version,time,op,size,lbn\n1,5,2a,512,42\n"
        #expect(
            try TraceReader.resolveFormat(bytes: Array(text.utf8), file: "x.csv", format: nil, columns: nil) == .csv)
    }

    @Test func sniffsCachelabInAFileWithAnUnknownExtension() throws {
        let trace = try TraceFixtures.read("time,key,size\n0,k,1\n", name: "scenario.trace")
        #expect(trace.keyNames == ["k"])
    }

    @Test func aColumnSpecMeansCSVEvenWithCachelabsHeader() throws {
        // Given a cachelab header but an explicit column spec
        let text = "time,key,size\n3,17,10\n"

        // When it is read with the spec, the spec wins
        let trace = try TraceFixtures.read(text, name: "x.dat", columns: "time=1,id=2,size=3")
        #expect(trace.keys == [17])
        #expect(trace.keyNames == nil)
    }

    @Test func refusesAFileWhoseFormatCannotBeTold() {
        #expect(
            TraceFixtures.failure("1\n2\n", name: "ids.dat")
                == "ids.dat: cannot tell the trace format from the file name; "
                + "give one of cachelab, csv, txt, oracle-general")
    }

    @Test func refusesAColumnSpecForAFormatOtherThanCSV() {
        #expect(
            TraceFixtures.failure("1\n", name: "ids.txt", columns: "id=1")
                == "ids.txt: a column spec applies only to the csv format, not to txt")
    }
}
