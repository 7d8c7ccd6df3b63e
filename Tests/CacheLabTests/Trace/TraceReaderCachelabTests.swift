import Testing

@testable import CacheLab

@Suite struct TraceReaderCachelabTests {
    /// A short session: two images, a trip to the background and a relaunch.
    let session = """
        # cachelab trace: a short session
        # times are seconds
        time,key,size,event
        0,https://img.example.com/a.jpg,20480,
        0.25,https://img.example.com/b.jpg,4096,get
        1.5,,,background
        86400.5,,,relaunch
        86400.5,https://img.example.com/a.jpg,20480,

        """

    @Test func readsRequestsEventsAndKeyNames() throws {
        // When a cachelab trace is read
        let trace = try TraceFixtures.read(session, format: .cachelab)

        // Then keys are interned in order of first appearance
        #expect(trace.keyNames == ["https://img.example.com/a.jpg", "https://img.example.com/b.jpg"])
        #expect(trace.keys == [0, 1, 0])
        #expect(trace.sizes == [20480, 4096, 20480])
        // And times are exact milliseconds
        #expect(trace.times == [0, 250, 86_400_500])
        // And events sit before the request that follows them
        #expect(
            trace.events == [
                TraceEvent(position: 2, time: 1500, kind: .background),
                TraceEvent(position: 2, time: 86_400_500, kind: .relaunch),
            ])
    }

    @Test(arguments: [
        ("86400", 86_400_000 as Int64), ("86400.5", 86_400_500), ("86400.05", 86_400_050),
        ("86400.125", 86_400_125), ("0.001", 1), ("007", 7000),
        ("9223372036854775.807", Int64.max),
    ])
    func parsesTimesExactlyToMilliseconds(text: String, milliseconds: Int64) throws {
        let trace = try TraceFixtures.read("time,key,size\n\(text),k,1\n")
        #expect(trace.times == [milliseconds])
    }

    @Test(arguments: [
        ("1.2345", "time \"1.2345\" has more than 3 decimals (times are kept in milliseconds)"),
        ("1.", "time \"1.\" is not a time in seconds (a number such as 86400 or 86400.5)"),
        (".5", "time \".5\" is not a time in seconds (a number such as 86400 or 86400.5)"),
        ("1e3", "time \"1e3\" is not a time in seconds (a number such as 86400 or 86400.5)"),
        ("9223372036854776", "time \"9223372036854776\" is too large"),
    ])
    func refusesABadTime(text: String, reason: String) {
        #expect(TraceFixtures.failure("time,key,size\n\(text),k,1\n") == "t.csv:2: " + reason)
    }

    @Test func refusesABadSize() {
        #expect(
            TraceFixtures.failure("time,key,size\n1,k,12a\n", name: "traces/x.csv")
                == "traces/x.csv:2: size \"12a\" is not a positive integer of bytes")
        #expect(
            TraceFixtures.failure("time,key,size\n1,k,0\n") == "t.csv:2: size \"0\" is not a positive integer of bytes")
    }

    @Test func refusesTimesGoingBackwards() {
        #expect(
            TraceFixtures.failure("time,key,size,event\n13,a,1,\n12.5,,,background\n")
                == "t.csv:3: time 12.5 is earlier than the 13 before it; times must not go backwards")
    }

    @Test func refusesALineWithTooFewFields() {
        #expect(
            TraceFixtures.failure("# c\ntime,key,size\n1,a,1\n2,b\n")
                == "t.csv:4: the line has 2 fields but the header names 3")
    }

    @Test func refusesALineWithTooManyFields() {
        #expect(
            TraceFixtures.failure("time,key,size\n1,a,b,1\n")
                == "t.csv:2: the line has 4 fields but the header names 3 (a key cannot hold a comma)")
    }

    @Test func refusesAHeaderWithoutARequiredColumn() {
        #expect(
            TraceFixtures.failure("time,key,bytes\n1,a,1\n", format: .cachelab)
                == "t.csv:1: the header names no \"size\" column (it needs time,key,size and may add event)")
        #expect(
            TraceFixtures.failure("time,key,size,key\n1,a,1,b\n")
                == "t.csv:1: the header names column \"key\" twice")
    }

    @Test func refusesAnUnknownEvent() {
        #expect(
            TraceFixtures.failure("time,key,size,event\n1,,,crash\n")
                == "t.csv:2: event \"crash\" is not one of get, relaunch, background, foreground, memory_warning, "
                + "favourite, unfavourite, prefetch, stop_prefetch")
    }

    @Test func refusesAnEventWithAKeyOrASize() {
        #expect(
            TraceFixtures.failure("time,key,size,event\n1,a,,relaunch\n")
                == "t.csv:2: a relaunch event takes no key; leave it empty")
        #expect(
            TraceFixtures.failure("time,key,size,event\n1,,5,background\n")
                == "t.csv:2: a background event takes no size; leave it empty")
        #expect(
            TraceFixtures.failure("time,key,size,event\n1,a,5,favourite\n")
                == "t.csv:2: a favourite event takes no size; leave it empty")
    }

    @Test func readsFavouritesWithThePhotosKey() throws {
        // Given a favourite of a photo requested later, and its unfavourite
        let text = "time,key,size,event\n1,b.jpg,,favourite\n2,a.jpg,5,\n3,b.jpg,7,get\n4,b.jpg,,unfavourite\n"
        let trace = try TraceReader.read(bytes: Array(text.utf8), name: "t.csv")

        // Then the events name the photo by the key its requests have (interned at first mention)
        #expect(trace.keyNames == ["b.jpg", "a.jpg"])
        #expect(trace.keys == [1, 0])
        #expect(
            trace.events == [
                TraceEvent(position: 0, time: 1000, kind: .favourite, key: 0),
                TraceEvent(position: 2, time: 4000, kind: .unfavourite, key: 0),
            ])
        #expect(
            TraceFixtures.failure("time,key,size,event\n1,,,unfavourite\n")
                == "t.csv:2: an unfavourite event needs the photo's key")
    }

    @Test func refusesAnEmptyKeyAQuotedKeyAndALoneCarriageReturn() {
        #expect(TraceFixtures.failure("time,key,size\n1,,5\n") == "t.csv:2: the key is empty")
        #expect(TraceFixtures.failure("time,key,size\n1,\"a\",5\n") == "t.csv:2: key \"\"a\"\" holds a double quote")
        // Found by the fuzzer: the writer cannot write such a key back.
        #expect(TraceFixtures.failure("time,key,size\n1,a\rb,5\r\n") == "t.csv:2: key \"a\rb\" holds a carriage return")
    }

    @Test func acceptsBlankLinesOnlyAtTheEnd() throws {
        #expect(try TraceFixtures.read("time,key,size\r\n1,a,1\r\n \n\n").keys == [0])
        #expect(TraceFixtures.failure("time,key,size\n1,a,1\n\n2,b,1\n") == "t.csv:3: the line is empty")
    }

    @Test func ignoresColumnsItDoesNotKnowInAnyOrder() throws {
        let trace = try TraceFixtures.read("size,status,key,time\n10,200,a,1\n20,304,b,2\n")
        #expect(trace.keyNames == ["a", "b"])
        #expect(trace.sizes == [10, 20])
        #expect(trace.times == [1000, 2000])
    }

    @Test(arguments: ["", "# only a comment\n", "time,key,size\n", "time,key,size,event\n1,,,relaunch\n"])
    func refusesAFileWithoutRequests(text: String) {
        #expect(TraceFixtures.failure(text, format: .cachelab) == "t.csv: the trace holds no request")
    }

    @Test func internsManyKeysAcrossTableGrowth() throws {
        // Given 5,000 distinct keys, each requested twice
        var text = "time,key,size\n"
        for round in 0..<2 {
            for index in 0..<5000 {
                text += "\(round),img/\(index).jpg,\(index + 1)\n"
            }
        }

        // Then each gets one id, the same on its second request
        let trace = try TraceFixtures.read(text)
        #expect(trace.keyNames?.count == 5000)
        #expect(Array(trace.keys[5000...]) == (0..<5000).map(UInt64.init))
        #expect(trace.keyNames?[4321] == "img/4321.jpg")
    }
}
