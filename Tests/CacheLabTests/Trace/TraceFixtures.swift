import ClientModel
import Testing

@testable import CacheLab

/// Small traces and helpers for the reader and writer tests.
enum TraceFixtures {
    /// Parses `text` as the file `name`.
    static func read(
        _ text: String, name: String = "t.csv", format: TraceFormat? = nil, columns: String? = nil
    ) throws(TraceError) -> Trace {
        let spec = try columns.map { spec throws(TraceError) in try CSVColumns(parsing: spec) }
        let trace = try TraceReader.read(bytes: Array(text.utf8), name: name, format: format, columns: spec)
        #expect(trace.checkInvariants().isEmpty, "\(name): \(trace.checkInvariants())")
        return trace
    }

    /// The message of the error reading `text` throws, or `nil` when it reads.
    static func failure(
        _ text: String, name: String = "t.csv", format: TraceFormat? = nil, columns: String? = nil
    ) -> String? {
        failure(Array(text.utf8), name: name, format: format, columns: columns)
    }

    /// The message of the error reading `bytes` throws, or `nil` when they read.
    static func failure(
        _ bytes: [UInt8], name: String, format: TraceFormat? = nil, columns: String? = nil
    ) -> String? {
        do {
            let spec = try columns.map { spec throws(TraceError) in try CSVColumns(parsing: spec) }
            _ = try TraceReader.read(bytes: bytes, name: name, format: format, columns: spec)
            return nil
        } catch {
            return error.description
        }
    }

    /// One `oracleGeneral` record.
    static func record(time: UInt32, id: UInt64, size: UInt32, nextAccess: Int64 = -1) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: time.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: id.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: size.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: nextAccess.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// A seeded random trace with numeric ids (some of them huge), whole-second times that never
    /// go backwards and sizes from 1 byte to 1 MB.
    static func makeNumericTrace(count: Int = 500, seed: UInt64 = 42) -> Trace {
        var random = SplitMix64(seed: seed)
        let pool: [UInt64] = (0..<50).map { _ in random.next() } + [0, 1, UInt64.max]
        var trace = Trace(name: "random")
        var time: Int64 = 1_700_000_000_000
        for _ in 0..<count {
            time += Int64(random.next() % 3) * 1000
            let key = pool[Int(random.next() % UInt64(pool.count))]
            trace.append(time: time, key: key, size: 1 + Int(random.next() % 1_000_000))
        }
        return trace
    }

    /// A seeded random trace with string keys, millisecond times and app events, as cachelab's
    /// own format holds.
    static func makeNamedTrace(count: Int = 300, seed: UInt64 = 7) -> Trace {
        var random = SplitMix64(seed: seed)
        let names = (0..<40).map { "https://img.example.com/recipes/\($0)/photo-\(random.next() % 1000).jpg?w=320" }
        var trace = Trace(name: "named", keyNames: names)
        var time: Int64 = 0
        for index in 0..<count {
            time += Int64(random.next() % 1500)
            if index % 97 == 13 {
                let kind = TraceEvent.Kind.allCases[Int(random.next() % 4)]
                trace.appendEvent(kind, time: time)
            }
            trace.append(time: time, key: random.next() % UInt64(names.count), size: 1 + Int(random.next() % 300_000))
        }
        trace.appendEvent(.relaunch, time: time + 5)
        return trace
    }
}
