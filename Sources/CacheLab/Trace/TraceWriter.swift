/// Writes traces in any format `TraceReader` reads, so that reading one back gives the same
/// requests; a stream of any length is written a chunk at a time, a name ending in `.zst`
/// compressed with zstd, and the file appears whole or not at all (`FileSink`).
///
/// - `cachelab`: `time,key,size` (plus `event` when the trace may have events), times in seconds
///   with up to 3 decimals; the key is its name when the trace has string keys, else the numeric
///   id. Reading it back gives the same times, sizes, events and key strings.
/// - `csv`: libCacheSim's CSV with the header `time,obj_id,obj_size`, times in whole seconds
///   (milliseconds are truncated). `TraceWriter.csvColumns` (`time=1,id=2,size=3`) reads it
///   back, and so does no column spec at all, from the header. Events are not written.
/// - `txt`: one id per line; times, sizes and events are not written.
/// - `oracleGeneral`: 24-byte little-endian records `u32 time, u64 obj_id, u32 size,
///   i64 next_access_vtime`, times in whole seconds. `next_access_vtime` is -1 when the object is
///   never requested again, else the 1-based index of its next request, as in libCacheSim's own
///   files: carried over from an oracleGeneral source, computed for a trace in memory, and for
///   any other stream by one more pass (`NextUseFile`). Events are not written.
public enum TraceWriter {
    /// The column spec that reads back what the `csv` format writes: `time=1,id=2,size=3`.
    public static let csvColumns = CSVColumns(time: 1, id: 2, size: 3)

    /// The header line of the `csv` format, without its newline.
    public static let csvHeader = "time,obj_id,obj_size"

    /// Writes `trace` to the file at `path` in `format` (zstd-compressed when the path ends in
    /// `.zst`), replacing the file if it exists.
    ///
    /// - Throws: `TraceError.unwritable` when the file cannot be written or the format cannot
    ///   hold the trace (a negative time, a key with a comma in the cachelab format, a time past
    ///   2106 in the binary format, ...); the file is then left as it was.
    public static func write(_ trace: Trace, format: TraceFormat, to path: String) throws(TraceError) {
        try checkNames(trace, format: format, file: path)
        try write(TraceSource(trace), format: format, to: path)
    }

    /// The bytes `write(_:format:to:)` would write (uncompressed); errors name the trace instead
    /// of a file.
    public static func bytes(_ trace: Trace, format: TraceFormat) throws(TraceError) -> [UInt8] {
        try checkNames(trace, format: format, file: trace.name)
        let sink = MemorySink()
        try encode(
            TraceArrayStream(trace, nextUses: format == .oracleGeneral), nextUses: nil, format: format, to: sink,
            file: trace.name, progress: nil)
        return sink.bytes
    }

    /// What a write wrote.
    public struct Written: Sendable, Equatable {
        public var requests: Int
        /// Events written (only cachelab's format holds them).
        public var events: Int
    }

    /// Writes the trace `source` reads to the file at `path` in `format`, a chunk at a time
    /// (zstd-compressed when the path ends in `.zst`). Memory stays constant whatever the
    /// trace's length; an oracleGeneral file from a source that carries no next uses takes one
    /// more pass first (`NextUseFile`, 16 bytes a request on disk).
    ///
    /// - Parameters:
    ///   - source: the trace to read.
    ///   - format: the format to write.
    ///   - path: the file to write, whole or not at all.
    ///   - progress: called after each chunk: requests so far and how far through the
    ///     source, in either phase.
    @discardableResult
    public static func write(
        _ source: TraceSource, format: TraceFormat, to path: String,
        progress: (@Sendable (PlanProgress) -> Void)? = nil
    ) throws(TraceError) -> Written {
        let stream: any RequestStream
        var nextUses: NextUseFile?
        if let trace = source.trace {
            stream = TraceArrayStream(trace, nextUses: format == .oracleGeneral)
        } else {
            if format == .oracleGeneral && !source.carriesNextUses {
                nextUses = try NextUseFile.build(from: source, chunkCapacity: RequestChunk.defaultCapacity) {
                    requests, stream in
                    let (done, total) = stream.progress
                    progress?(PlanProgress(phase: .nextUses, requests: requests, done: done, total: total))
                }
            }
            stream = try source.open()
        }
        var sink: any ByteSink = try FileSink(path: path)
        if TraceFormat.isCompressed(path) { sink = try ZstdSink(sink, name: path) }
        let written = try encode(
            stream, nextUses: nextUses, format: format, to: sink, file: path,
            progress: progress.map { report in
                { requests in
                    let (done, total) = stream.progress
                    report(PlanProgress(requests: requests, done: done, total: total))
                }
            })
        try sink.finish()
        return written
    }

    /// Formats a time in milliseconds as seconds with only the decimals it needs:
    /// 86400500 → `86400.5`, 86400000 → `86400`, 1 → `0.001`.
    public static func seconds(fromMilliseconds milliseconds: Int64) -> String {
        var text: [UInt8] = []
        appendSeconds(milliseconds, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Refuses, before anything is written, a trace in memory whose key names cachelab's format
    /// cannot hold.
    private static func checkNames(_ trace: Trace, format: TraceFormat, file: String) throws(TraceError) {
        guard format == .cachelab, let names = trace.keyNames else { return }
        for name in names {
            if let problem = cachelabKeyProblem(name) {
                throw .unwritable(file: file, reason: "key \"\(name)\" \(problem)")
            }
        }
    }

    /// Writes every chunk of `stream` to `sink` in `format`.
    @discardableResult
    private static func encode(
        _ stream: any RequestStream, nextUses: NextUseFile?, format: TraceFormat, to sink: any ByteSink, file: String,
        progress: ((Int) -> Void)?
    ) throws(TraceError) -> Written {
        var encoder = Encoder(format: format, file: file, stream: stream)
        var chunk = RequestChunk(carriesNextUses: format == .oracleGeneral)
        var out: [UInt8] = []
        out.reserveCapacity(RequestChunk.defaultCapacity * 32)
        encoder.header(into: &out)
        var written = 0
        while try stream.next(into: &chunk) {
            if format == .oracleGeneral {
                if let nextUses {
                    try nextUses.fill(&chunk, trace: stream.name)
                } else {
                    precondition(stream.carriesNextUses, "TraceWriter: an oracleGeneral file needs next uses")
                }
            }
            try chunk.withBatch { batch throws(TraceError) in try encoder.append(batch, to: &out) }
            try flush(&out, to: sink)
            written += chunk.count
            progress?(written)
        }
        try encoder.end(into: &out)
        try flush(&out, to: sink)
        return Written(requests: written, events: encoder.eventsWritten)
    }

    private static func flush(_ out: inout [UInt8], to sink: any ByteSink) throws(TraceError) {
        guard !out.isEmpty else { return }
        try out.withUnsafeBufferPointer { bytes throws(TraceError) in try sink.write(UnsafeRawBufferPointer(bytes)) }
        out.removeAll(keepingCapacity: true)
    }
}

/// Turns chunks of requests into one format's bytes, keeping what spans chunks: the previous
/// time, the events written so far.
private struct Encoder {
    let format: TraceFormat
    let file: String
    let stream: any RequestStream
    let hasEvents: Bool
    let hasPixelSizes: Bool
    private var previous: Int64 = 0
    private(set) var eventsWritten = 0
    private var pendingEvents: [TraceEvent] = []

    init(format: TraceFormat, file: String, stream: any RequestStream) {
        self.format = format
        self.file = file
        self.stream = stream
        hasEvents = format == .cachelab && stream.mayHaveEvents
        hasPixelSizes = format == .cachelab && stream.mayHavePixelSizes
    }

    func header(into out: inout [UInt8]) {
        switch format {
        case .cachelab:
            // Named as a trace read whole is: after the file's last path component
            let base = stream.name.split(separator: "/").last.map(String.init) ?? stream.name
            let title = base.map { $0 == "\n" || $0 == "\r" ? " " : $0 }
            out.append(contentsOf: "# cachelab trace: \(String(title))\n".utf8)
            out.append(contentsOf: "time,key,size".utf8)
            if hasEvents { out.append(contentsOf: ",event".utf8) }
            if hasPixelSizes { out.append(contentsOf: ",width,height".utf8) }
            out.append(UInt8(ascii: "\n"))
        case .csv:
            out.append(contentsOf: TraceWriter.csvHeader.utf8)
            out.append(UInt8(ascii: "\n"))
        case .txt, .oracleGeneral:
            break
        }
    }

    mutating func append(_ batch: RequestBatch, to out: inout [UInt8]) throws(TraceError) {
        switch format {
        case .cachelab: try cachelab(batch, to: &out)
        case .csv: try csv(batch, to: &out)
        case .txt: text(batch, to: &out)
        case .oracleGeneral: try oracleGeneral(batch, to: &out)
        }
    }

    /// Events after the last request.
    mutating func end(into out: inout [UInt8]) throws(TraceError) {
        guard hasEvents else { return }
        let events = pendingEvents
        pendingEvents.removeAll()
        for event in events { try writeEvent(event, to: &out) }
    }

    // MARK: cachelab

    private mutating func cachelab(_ batch: RequestBatch, to out: inout [UInt8]) throws(TraceError) {
        // Events of an earlier batch at its very end come before this batch's first request.
        var events = pendingEvents + Array(batch.events)
        pendingEvents.removeAll()
        var nextEvent = 0
        for index in 0..<batch.count {
            let position = batch.start + index
            if hasEvents {
                while nextEvent < events.count && events[nextEvent].position <= position {
                    try writeEvent(events[nextEvent], to: &out)
                    nextEvent += 1
                }
            }
            let time = batch.times[index]
            try checkTime(time, "request \(position)")
            let size = batch.sizes[index]
            guard size > 0 else {
                throw .unwritable(file: file, reason: "request \(position) has size \(size); sizes must be positive")
            }
            TraceWriter.appendSeconds(time, to: &out)
            out.append(UInt8(ascii: ","))
            try appendKey(batch.keys[index], to: &out)
            out.append(UInt8(ascii: ","))
            TraceWriter.appendDecimal(UInt64(size), to: &out)
            if hasEvents {
                out.append(UInt8(ascii: ","))
            }
            if hasPixelSizes {
                let pixels = batch.pixelSizes.isEmpty ? 0 : batch.pixelSizes[index]
                out.append(UInt8(ascii: ","))
                if pixels != 0 { TraceWriter.appendDecimal(UInt64(pixels >> 16), to: &out) }
                out.append(UInt8(ascii: ","))
                if pixels != 0 { TraceWriter.appendDecimal(UInt64(pixels & 0xFFFF), to: &out) }
            }
            out.append(UInt8(ascii: "\n"))
        }
        events.removeFirst(nextEvent)
        pendingEvents = events
    }

    private mutating func writeEvent(_ event: TraceEvent, to out: inout [UInt8]) throws(TraceError) {
        let index = eventsWritten
        try checkTime(event.time, "event \(index) (\(event.kind.rawValue))")
        TraceWriter.appendSeconds(event.time, to: &out)
        out.append(UInt8(ascii: ","))
        if let key = event.key { try appendKey(key, to: &out) }
        out.append(contentsOf: ",,".utf8)
        out.append(contentsOf: event.kind.rawValue.utf8)
        if hasPixelSizes { out.append(contentsOf: ",,".utf8) }
        out.append(UInt8(ascii: "\n"))
        eventsWritten += 1
    }

    /// Writes `key` as its string (a trace with named keys) or its decimal id.
    private func appendKey(_ key: UInt64, to out: inout [UInt8]) throws(TraceError) {
        guard let name = stream.keyName(for: key) else { return TraceWriter.appendDecimal(key, to: &out) }
        if let problem = TraceWriter.cachelabKeyProblem(name) {
            throw .unwritable(file: file, reason: "key \"\(name)\" \(problem)")
        }
        out.append(contentsOf: name.utf8)
    }

    private mutating func checkTime(_ time: Int64, _ what: @autoclosure () -> String) throws(TraceError) {
        guard time >= 0 else {
            throw .unwritable(file: file, reason: "\(what()) has a negative time")
        }
        guard time >= previous else {
            throw .unwritable(file: file, reason: "\(what()) goes back in time, which the cachelab format forbids")
        }
        previous = time
    }

    // MARK: libCacheSim's formats

    private func csv(_ batch: RequestBatch, to out: inout [UInt8]) throws(TraceError) {
        for index in 0..<batch.count {
            let time = batch.times[index]
            let size = batch.sizes[index]
            guard time >= 0 else {
                throw .unwritable(file: file, reason: "request \(batch.start + index) has a negative time")
            }
            guard size > 0 else {
                throw .unwritable(
                    file: file, reason: "request \(batch.start + index) has size \(size); sizes must be positive")
            }
            TraceWriter.appendDecimal(UInt64(time / 1000), to: &out)
            out.append(UInt8(ascii: ","))
            TraceWriter.appendDecimal(batch.keys[index], to: &out)
            out.append(UInt8(ascii: ","))
            TraceWriter.appendDecimal(UInt64(size), to: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    private func text(_ batch: RequestBatch, to out: inout [UInt8]) {
        for key in batch.keys {
            TraceWriter.appendDecimal(key, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    private func oracleGeneral(_ batch: RequestBatch, to out: inout [UInt8]) throws(TraceError) {
        let recordSize = TraceReader.oracleGeneralRecordSize
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: batch.count * recordSize))
        try out.withUnsafeMutableBufferPointer { bytes throws(TraceError) in
            let raw = UnsafeMutableRawBufferPointer(bytes)
            for index in 0..<batch.count {
                let time = batch.times[index]
                let size = batch.sizes[index]
                guard time >= 0, time / 1000 <= Int64(UInt32.max) else {
                    throw .unwritable(
                        file: file,
                        reason:
                            "request \(batch.start + index) has time \(TraceWriter.seconds(fromMilliseconds: time)) s, "
                            + "outside the 0...\(UInt32.max) seconds the oracleGeneral format holds")
                }
                guard size > 0, size <= Int(UInt32.max) else {
                    throw .unwritable(
                        file: file,
                        reason: "request \(batch.start + index) has size \(size), outside the 1...\(UInt32.max) bytes "
                            + "the oracleGeneral format holds")
                }
                // The file's -1 (never again) is libCacheSim's INT64_MAX once read.
                let next = batch.nextUses[index]
                let offset = start + index * recordSize
                raw.storeBytes(of: UInt32(time / 1000).littleEndian, toByteOffset: offset, as: UInt32.self)
                raw.storeBytes(of: batch.keys[index].littleEndian, toByteOffset: offset + 4, as: UInt64.self)
                raw.storeBytes(of: UInt32(size).littleEndian, toByteOffset: offset + 12, as: UInt32.self)
                raw.storeBytes(of: (next == .max ? -1 : next).littleEndian, toByteOffset: offset + 16, as: Int64.self)
            }
        }
    }
}

// MARK: - Text

extension TraceWriter {
    /// Why `name` cannot be a key of cachelab's format, or `nil` when it can.
    static func cachelabKeyProblem(_ name: String) -> String? {
        if name.isEmpty {
            return "is empty"
        }
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: ","): return "holds a comma, which the cachelab format cannot hold"
            case UInt8(ascii: "\""): return "holds a double quote, which the cachelab format cannot hold"
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return "holds a line break"
            default: continue
            }
        }
        return nil
    }

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        guard value >= 10 else {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var remaining = value
            var start = 20
            while remaining > 0 {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[start...]))
        }
    }

    /// Appends a time in milliseconds as seconds with only the decimals it needs.
    static func appendSeconds(_ milliseconds: Int64, to out: inout [UInt8]) {
        if milliseconds < 0 {
            out.append(UInt8(ascii: "-"))
        }
        let magnitude = milliseconds.magnitude
        appendDecimal(magnitude / 1000, to: &out)
        var fraction = Int(magnitude % 1000)
        guard fraction > 0 else {
            return
        }
        out.append(UInt8(ascii: "."))
        var divisor = 100
        while fraction > 0 {
            out.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}
