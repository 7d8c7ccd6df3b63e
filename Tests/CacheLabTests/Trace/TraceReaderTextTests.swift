import Testing

@testable import CacheLab

@Suite struct TraceReaderTextTests {
    @Test func readsOneIdPerLineWithSizeOneAndTimeZero() throws {
        let trace = try TraceFixtures.read("42932745\n42932746\n18446744073709551615\n", name: "ids.txt")
        #expect(trace.keys == [42_932_745, 42_932_746, UInt64.max])
        #expect(trace.sizes == [1, 1, 1])
        #expect(trace.times == [0, 0, 0])
    }

    @Test(arguments: ["1\n2", "1\n2\n", "1\n2\n\n", "1\r\n2\r\n", " 1 \n2\n  \n"])
    func acceptsAMissingOrBlankLastLine(text: String) throws {
        #expect(try TraceFixtures.read(text, name: "ids.txt").keys == [1, 2])
    }

    @Test func refusesABlankLineBeforeTheEnd() {
        #expect(TraceFixtures.failure("1\n\n2\n", name: "ids.txt") == "ids.txt:2: the line is empty")
    }

    @Test func refusesANonNumericLine() {
        #expect(
            TraceFixtures.failure("1\n2\nthree\n", name: "ids.txt")
                == "ids.txt:3: id \"three\" is not an unsigned integer")
    }

    @Test func refusesAnIdThatOverflows64Bits() {
        #expect(
            TraceFixtures.failure("99999999999999999999\n", name: "ids.txt")
                == "ids.txt:1: id \"99999999999999999999\" does not fit in 64 bits")
    }

    @Test(arguments: ["", "\n", "\n\n"])
    func refusesAnEmptyFile(text: String) {
        #expect(TraceFixtures.failure(text, name: "ids.txt") == "ids.txt: the trace holds no request")
    }
}
