import Testing

@testable import CacheLab

@Suite struct TraceReaderBinaryTests {
    @Test func readsLittleEndianRecords() throws {
        // Given three records
        let bytes =
            TraceFixtures.record(time: 5_633_898, id: 42_932_745, size: 512, nextAccess: 3)
            + TraceFixtures.record(time: 5_633_899, id: UInt64.max, size: 69_632)
            + TraceFixtures.record(time: 5_633_900, id: 42_932_745, size: 4096)

        // When they are read
        let trace = try TraceReader.read(bytes: bytes, name: "x.oracleGeneral.bin")

        // Then times are milliseconds and next access is not a request field
        #expect(trace.times == [5_633_898_000, 5_633_899_000, 5_633_900_000])
        #expect(trace.keys == [42_932_745, UInt64.max, 42_932_745])
        #expect(trace.sizes == [512, 69_632, 4096])
    }

    @Test func dropsRecordsOfSizeZero() throws {
        let bytes =
            TraceFixtures.record(time: 1, id: 1, size: 0) + TraceFixtures.record(time: 2, id: 2, size: 10)
        let trace = try TraceReader.read(bytes: bytes, name: "x", format: .oracleGeneral)
        #expect(trace.keys == [2])
    }

    @Test func namesThePartialRecordOfATruncatedFile() {
        // Given two whole records and 10 bytes of a third
        let bytes =
            TraceFixtures.record(time: 1, id: 1, size: 1) + TraceFixtures.record(time: 2, id: 2, size: 1)
            + Array(TraceFixtures.record(time: 3, id: 3, size: 1).prefix(10))

        // Then the error names the third record, counted from 1 as lines are
        #expect(throws: TraceError.truncatedRecord(file: "x.oracleGeneral.bin", record: 3, bytes: 10, recordSize: 24)) {
            try TraceReader.read(bytes: bytes, name: "x.oracleGeneral.bin")
        }
        #expect(
            TraceFixtures.failure(bytes, name: "x.oracleGeneral.bin")
                == "x.oracleGeneral.bin: record 3 is truncated: 10 of 24 bytes")
    }

    @Test func refusesAnEmptyFile() {
        #expect(throws: TraceError.empty(file: "x.oracleGeneral.bin")) {
            try TraceReader.read(bytes: [], name: "x.oracleGeneral.bin")
        }
        #expect(throws: TraceError.empty(file: "x.oracleGeneral.bin")) {
            try TraceReader.read(bytes: TraceFixtures.record(time: 1, id: 1, size: 0), name: "x.oracleGeneral.bin")
        }
    }
}
