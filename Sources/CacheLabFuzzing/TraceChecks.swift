import CacheEngine
import CacheLab
import ClientModel
import RecipeClient

/// The trace target: every reader on the same bytes, then what must hold of whatever they read.
///
/// - A refusal names the file (`fuzz.csv: …`), and for a text format the line.
/// - A trace that is read keeps `Trace`'s invariants: columns of one length, sizes in
///   `1...Trace.largestSize`, times not negative (and never going back in cachelab's own format),
///   events in order, every key named.
/// - Written back in its format and read again, it is the same trace (in whole seconds for
///   libCacheSim's CSV, as the writer documents).
/// - Replayed through every policy at two capacities, and through the recommended two-tier
///   client, the counts add up; LRU's one-pass stack curve equals LRU replayed.
enum TraceChecks {
    /// The file names errors must carry, one per format (the format a name implies is also the
    /// one given, so a read without a format resolves the same way).
    private static let readings: [(format: TraceFormat, name: String)] = [
        (.cachelab, "fuzz.csv"), (.csv, "fuzz.csv"), (.txt, "fuzz.txt"), (.oracleGeneral, "fuzz.oracleGeneral.bin"),
    ]

    static func check(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        var read: [TraceFormat: Trace] = [:]
        for (format, name) in readings {
            let label = format.rawValue
            switch reading(bytes, name: name, format: format, columns: nil, label: label, into: &problems) {
            case let trace?:
                read[format] = trace
                problems += checked(trace, format: format, columns: nil, label: label)
            case nil: break
            }
        }
        // No format given: a `.csv` file is cachelab's own when its header says so, else libCacheSim's.
        let label = "csv, format inferred"
        if let inferred = reading(bytes, name: "fuzz.csv", format: nil, columns: nil, label: label, into: &problems),
            inferred != read[.cachelab] && inferred != read[.csv]
        {
            problems.append("\(label): read neither as the cachelab nor as the csv reader reads it")
        }
        problems += checkColumnSpec(bytes)
        return problems
    }

    /// libCacheSim's CSV with a column spec: the input's first line is the spec, the rest the file.
    private static func checkColumnSpec(_ bytes: [UInt8]) -> [String] {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return [] }
        let spec = String(decoding: bytes[..<newline], as: UTF8.self)
        let columns: CSVColumns
        do {
            columns = try CSVColumns(parsing: spec)
        } catch {
            return error.description.isEmpty ? ["column spec \(spec.debugDescription): an empty error"] : []
        }
        var problems: [String] = []
        let reparsed = try? CSVColumns(parsing: columns.description)
        if reparsed != columns {
            problems.append(
                "column spec \(spec.debugDescription) prints as \(columns) but that parses to \(String(describing: reparsed))"
            )
        }
        let label = "csv with columns \(columns)"
        if let trace = reading(
            Array(bytes[(newline + 1)...]), name: "fuzz.csv", format: .csv, columns: columns, label: label,
            into: &problems)
        {
            problems += checked(trace, format: .csv, columns: columns, label: label)
        }
        return problems
    }

    /// The trace the reader makes of `bytes`, or nil when it refuses them; a refusal that does not
    /// name the file is a problem.
    private static func reading(
        _ bytes: [UInt8], name: String, format: TraceFormat?, columns: CSVColumns?, label: String,
        into problems: inout [String]
    ) -> Trace? {
        do {
            return try TraceReader.read(bytes: bytes, name: name, format: format, columns: columns)
        } catch {
            if !error.description.hasPrefix(name + ":") {
                problems.append("\(label): the error does not start with the file's name: \(error)")
            }
            return nil
        }
    }

    private static func checked(_ trace: Trace, format: TraceFormat, columns: CSVColumns?, label: String) -> [String] {
        let broken = invariants(trace, format: format)
        guard broken.isEmpty else { return broken.map { "\(label): \($0)" } }
        return (roundTrip(trace, format: format, columns: columns) + replays(trace)).map { "\(label): \($0)" }
    }

    private static func invariants(_ trace: Trace, format: TraceFormat) -> [String] {
        // The storage's own invariants, then what a reader of `format` promises besides.
        var problems = trace.checkInvariants()
        if trace.count == 0 { problems.append("read a trace without requests") }
        guard problems.isEmpty else { return problems }
        if let time = trace.times.first(where: { $0 < 0 }) { problems.append("a negative time, \(time)") }
        if format == .cachelab, zip(trace.times, trace.times.dropFirst()).contains(where: { $0 > $1 }) {
            problems.append("times go back")
        }
        if let names = trace.keyNames {
            if Set(names).count != names.count { problems.append("two ids share a name") }
        } else if format == .cachelab {
            problems.append("cachelab's format read without key names")
        }
        return problems
    }

    /// Written back in `format` and read again, the trace is unchanged (but for the CSV's
    /// whole seconds).
    private static func roundTrip(_ trace: Trace, format: TraceFormat, columns: CSVColumns?) -> [String] {
        let written: [UInt8]
        do {
            written = try TraceWriter.bytes(trace, format: format)
        } catch {
            return ["the writer refuses what the reader read: \(error)"]
        }
        do {
            let again = try TraceReader.read(
                bytes: written, name: trace.name, format: format,
                columns: columns == nil ? nil : TraceWriter.csvColumns)
            // libCacheSim's CSV keeps whole seconds, so the writer truncates milliseconds.
            let expected =
                format != .csv
                ? trace
                : Trace(
                    name: trace.name, times: trace.times.map { $0 / 1000 * 1000 }, keys: trace.keys, sizes: trace.sizes,
                    events: trace.events, keyNames: trace.keyNames, pixelSizes: trace.pixelSizes)
            return again == expected ? [] : ["written and read back, the trace differs: \(difference(expected, again))"]
        } catch {
            return ["the reader refuses what the writer wrote: \(error)"]
        }
    }

    /// Where two traces first differ, in a few words.
    private static func difference(_ a: Trace, _ b: Trace) -> String {
        if a.count != b.count { return "\(a.count) requests, then \(b.count)" }
        for i in 0..<a.count where a.times[i] != b.times[i] || a.keys[i] != b.keys[i] || a.sizes[i] != b.sizes[i] {
            return
                "request \(i) was (\(a.times[i]), \(a.keys[i]), \(a.sizes[i])), then (\(b.times[i]), \(b.keys[i]), \(b.sizes[i]))"
        }
        if a.events != b.events { return "events \(a.events), then \(b.events)" }
        if a.keyNames != b.keyNames { return "key names differ" }
        return "names \(a.name.debugDescription), then \(b.name.debugDescription)"
    }

    /// Every policy at a tiny and a middling capacity, a sliding lifetime, the two-tier client and
    /// LRU's stack curve: the counts must add up.
    private static func replays(_ trace: Trace) -> [String] {
        var problems: [String] = []
        let bytes = trace.sizes.reduce(0, +)
        for policy in PolicyKind.allCases {
            for capacity in [1, bytes / 4 + 1] {
                // Without the latency model: its histogram's summary costs more than the replay
                // of a few hundred requests, and it reads nothing of the trace but sizes.
                let configuration = RunConfiguration(policy: policy, capacity: capacity)
                let result = Replay.simulate(trace, configuration, latency: false)
                problems += counts(result, of: trace, bytes: bytes, "\(policy.rawValue) at \(capacity) B")
            }
        }
        let sliding = RunConfiguration(policy: .lru, capacity: bytes, ttl: 60_000, ttlMode: .sliding)
        problems += counts(
            Replay.simulate(trace, sliding, latency: false), of: trace, bytes: bytes, "lru, 60 s sliding")
        let client = Replay.simulate(trace, client: ClientConfiguration.recommended)
        problems += counts(client, of: trace, bytes: bytes, "the recommended client")
        if client.memoryHits + client.diskHits != client.hits {
            problems.append("the recommended client: memory and disk hits do not add up to its hits")
        }

        let capacities = [1, 2, 3, 5, 8, 13, 100]
        let curve = MissRatioCurve.compute(
            trace, .init(policies: [.lru], capacities: capacities, sizeMode: .unit), workers: 1)
        for point in curve {
            let replayed = Replay.simulate(
                trace, RunConfiguration(policy: .lru, capacity: point.capacity, sizeMode: .unit), latency: false)
            if point.hits != replayed.hits {
                problems.append(
                    "LRU at \(point.capacity) objects: \(point.hits) hits on the curve, \(replayed.hits) replayed")
            }
        }
        return problems
    }

    private static func counts(_ result: RunResult, of trace: Trace, bytes: Int, _ label: String) -> [String] {
        var problems: [String] = []
        if result.requests != trace.count { problems.append("\(label): \(result.requests) requests of \(trace.count)") }
        if result.hits + result.delayedHits + result.misses != result.requests {
            problems.append("\(label): hits + delayed hits + misses ≠ requests")
        }
        if result.bytesDownloaded + result.bytesHit > result.bytesRequested {
            problems.append("\(label): more bytes downloaded and hit than requested")
        }
        if result.bytesRequested != bytes {
            problems.append("\(label): \(result.bytesRequested) bytes requested of \(bytes)")
        }
        if result.bytesHit > result.bytesRequested || result.bytesHit < 0 {
            problems.append("\(label): bytes hit out of range")
        }
        return problems
    }
}
