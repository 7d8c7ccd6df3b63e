import Testing

@testable import CacheLab

@Suite struct CSVColumnsTests {
    @Test func parsesLibCacheSimsColumnSpec() throws {
        let columns = try CSVColumns(parsing: "time=2,id=5,size=4")
        #expect(columns == CSVColumns(time: 2, id: 5, size: 4))
        #expect(columns.header == .auto)
        #expect(columns.delimiter == UInt8(ascii: ","))
        #expect(columns.lastColumn == 5)
    }

    @Test func needsOnlyAnId() throws {
        let columns = try CSVColumns(parsing: "id=1")
        #expect(columns.time == nil)
        #expect(columns.size == nil)
    }

    @Test func acceptsSpacesHeaderAndDelimiter() throws {
        let columns = try CSVColumns(parsing: " id = 3 , time=1, header=false, delimiter=tab")
        #expect(columns == CSVColumns(time: 1, id: 3, header: .false, delimiter: UInt8(ascii: "\t")))
        #expect(try CSVColumns(parsing: "id=1,delimiter=;").delimiter == UInt8(ascii: ";"))
    }

    @Test(arguments: ["time=2,id=5,size=4", "id=1", "id=2,header=true,delimiter=tab", "id=1,delimiter=|"])
    func printsASpecThatParsesBackToItself(spec: String) throws {
        let columns = try CSVColumns(parsing: spec)
        #expect(try CSVColumns(parsing: columns.description) == columns)
    }

    @Test(arguments: [
        ("id=0", "column spec \"id=0\": id=0 is not a column number (columns count from 1)"),
        ("id=x", "column spec \"id=x\": id=x is not a column number (columns count from 1)"),
        (
            "foo=3,id=1",
            "column spec \"foo=3,id=1\": unknown key \"foo\" (expected time, id, size, header or delimiter)"
        ),
        ("id=1,id=2", "column spec \"id=1,id=2\": id is given twice"),
        ("time=2,size=4", "column spec \"time=2,size=4\" names no id column (expected e.g. time=2,id=5,size=4)"),
        ("time=2,id=2", "column spec \"time=2,id=2\": column 2 is given twice"),
        ("id=5,", "column spec \"id=5,\": \"\" is not key=value (expected e.g. time=2,id=5,size=4)"),
        ("id", "column spec \"id\": \"id\" is not key=value (expected e.g. time=2,id=5,size=4)"),
        ("id=1,header=maybe", "column spec \"id=1,header=maybe\": header=maybe is not one of auto, true, false"),
    ])
    func refusesABadSpecWithASentence(spec: String, message: String) {
        #expect(throws: TraceError.invalidOptions(message)) {
            try CSVColumns(parsing: spec)
        }
    }

    @Test func refusesAnUnknownDelimiter() {
        #expect(throws: TraceError.self) {
            try CSVColumns(parsing: "id=1,delimiter=ab")
        }
    }
}
