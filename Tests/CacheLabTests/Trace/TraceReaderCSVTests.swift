import Testing

@testable import CacheLab

@Suite struct TraceReaderCSVTests {
    /// The first lines of cloudPhysicsIO.csv, whose spec is `time=2,id=5,size=4`.
    let cloudPhysics = """
        version,time,op,size,lbn
        1,5633898,2a,512,42932745
        1,5633898,2a,512,42932746
        1,5633899,2a,6656,40409911

        """

    @Test func readsFieldsWhereTheSpecSays() throws {
        // When a libCacheSim CSV is read with its column spec
        let trace = try TraceFixtures.read(cloudPhysics, columns: "time=2,id=5,size=4")

        // Then the header is skipped, times are milliseconds and ids and sizes are as written
        #expect(trace.keys == [42_932_745, 42_932_746, 40_409_911])
        #expect(trace.times == [5_633_898_000, 5_633_898_000, 5_633_899_000])
        #expect(trace.sizes == [512, 512, 6656])
        #expect(trace.keyNames == nil)
        #expect(trace.events.isEmpty)
        #expect(trace.name == "t.csv")
    }

    @Test func takesTheColumnsFromTheHeaderWithoutASpec() throws {
        let trace = try TraceFixtures.read(cloudPhysics)
        #expect(trace.keys == [42_932_745, 42_932_746, 40_409_911])
        #expect(trace.sizes == [512, 512, 6656])
        #expect(trace.times[2] == 5_633_899_000)
    }

    @Test func needsASpecWhenLineOneNamesNoIdColumn() {
        #expect(
            TraceFixtures.failure("1,2,3\n")
                == "t.csv: no column spec was given and line 1 is not a header naming an id column "
                + "(id, obj_id, object_id, key, lbn, lba); give one such as time=2,id=5,size=4")
    }

    @Test func detectsNoHeaderWhenLineOnesIdIsANumber() throws {
        let trace = try TraceFixtures.read("10,7,100\n11,8,200\n", columns: "time=1,id=2,size=3")
        #expect(trace.keys == [7, 8])
    }

    @Test func detectsAHeaderOnlyOnLineOne() {
        // Given a non-numeric id on line 2
        let text = "time,id\n1,7\n2,abc\n"

        // Then it is an error, not a second header
        #expect(TraceFixtures.failure(text, columns: "time=1,id=2") == "t.csv:3: id \"abc\" is not an unsigned integer")
    }

    @Test func readsLineOneAsARequestWhenTheSpecSaysThereIsNoHeader() {
        #expect(
            TraceFixtures.failure("time,id\n1,7\n", columns: "time=1,id=2,header=false")
                == "t.csv:1: id \"id\" is not an unsigned integer")
    }

    @Test func skipsLineOneWhenTheSpecSaysThereIsAHeader() throws {
        let trace = try TraceFixtures.read("1,7\n2,8\n", columns: "time=1,id=2,header=true")
        #expect(trace.keys == [8])
    }

    @Test func dropsRequestsOfSizeZero() throws {
        // libCacheSim's reader skips them, so they are neither requests nor errors.
        let trace = try TraceFixtures.read("1,7,0\n2,8,5\n3,9,0\n", columns: "time=1,id=2,size=3")
        #expect(trace.keys == [8])
        #expect(trace.count == 1)
    }

    @Test func givesSizeOneWithoutASizeColumnAndTimeZeroWithoutATimeColumn() throws {
        let trace = try TraceFixtures.read("a,7\nb,8\n", columns: "id=2")
        #expect(trace.sizes == [1, 1])
        #expect(trace.times == [0, 0])
    }

    @Test func acceptsTheLargestUnsigned64BitId() throws {
        let trace = try TraceFixtures.read("18446744073709551615\n", columns: "id=1")
        #expect(trace.keys == [UInt64.max])
    }

    @Test func refusesAnIdThatOverflows64Bits() {
        #expect(
            TraceFixtures.failure("1\n18446744073709551616\n", columns: "id=1")
                == "t.csv:2: id \"18446744073709551616\" does not fit in 64 bits")
    }

    @Test func refusesABadNumber() {
        #expect(
            TraceFixtures.failure("1,7,512\n2,8,12a\n", columns: "time=1,id=2,size=3")
                == "t.csv:2: size \"12a\" is not a non-negative integer of bytes")
        #expect(
            TraceFixtures.failure("1,7,512\n-2,8,5\n", columns: "time=1,id=2,size=3")
                == "t.csv:2: time \"-2\" is not a time in seconds (a number such as 86400 or 86400.5)")
    }

    @Test func refusesALineWithAMissingColumn() {
        #expect(
            TraceFixtures.failure(cloudPhysics + "1,5633900,2a,512\n", columns: "time=2,id=5,size=4")
                == "t.csv:5: column 5 is missing: the line has 4 fields")
    }

    @Test func acceptsCRLFSpacesAndTrailingBlankLines() throws {
        let trace = try TraceFixtures.read("1, 7 ,5\r\n2,8,6\r\n\r\n\n", columns: "time=1,id=2,size=3")
        #expect(trace.keys == [7, 8])
        #expect(trace.sizes == [5, 6])
    }

    @Test func refusesABlankLineBeforeTheEnd() {
        #expect(TraceFixtures.failure("1,7\n\n2,8\n", columns: "time=1,id=2") == "t.csv:2: the line is empty")
    }

    @Test func readsALastLineWithoutANewline() throws {
        #expect(try TraceFixtures.read("1,7\n2,8", columns: "time=1,id=2").keys == [7, 8])
    }

    @Test func readsAnotherDelimiter() throws {
        let trace = try TraceFixtures.read("7\t1\t100\n8\t2\t200\n", columns: "id=1,time=2,size=3,delimiter=tab")
        #expect(trace.keys == [7, 8])
        #expect(trace.times == [1000, 2000])
    }

    @Test func acceptsTimesWithDecimals() throws {
        let trace = try TraceFixtures.read("1.5,7\n2.25,8\n", columns: "time=1,id=2")
        #expect(trace.times == [1500, 2250])
    }

    @Test(arguments: ["", "time,obj_id,obj_size\n", "1,7,0\n"])
    func refusesAFileWithoutRequests(text: String) {
        #expect(TraceFixtures.failure(text, columns: "time=1,id=2,size=3") == "t.csv: the trace holds no request")
    }
}
