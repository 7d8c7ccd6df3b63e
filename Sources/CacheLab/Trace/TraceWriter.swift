#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a `Trace` in any format `TraceReader` reads, so that reading it back gives the same
/// requests.
///
/// - `cachelab`: `time,key,size` (plus `event` when the trace has events), times in seconds with
///   up to 3 decimals; the key is `keyNames[key]` when the trace has key names, else the numeric
///   id. Reading it back gives the same times, sizes, events and key strings.
/// - `csv`: libCacheSim's CSV with the header `time,obj_id,obj_size`, times in whole seconds
///   (milliseconds are truncated). `TraceWriter.csvColumns` (`time=1,id=2,size=3`) reads it
///   back, and so does no column spec at all, from the header. Events are not written.
/// - `txt`: one id per line; times, sizes and events are not written.
/// - `oracleGeneral`: 24-byte little-endian records `u32 time, u64 obj_id, u32 size,
///   i64 next_access_vtime`, times in whole seconds. `next_access_vtime` is -1 when the object is
///   never requested again, else the 1-based index of its next request, as in libCacheSim's own
///   files. Events are not written.
public enum TraceWriter {
    /// The column spec that reads back what the `csv` format writes: `time=1,id=2,size=3`.
    public static let csvColumns = CSVColumns(time: 1, id: 2, size: 3)

    /// The header line of the `csv` format, without its newline.
    public static let csvHeader = "time,obj_id,obj_size"

    /// Writes `trace` to the file at `path` in `format`, replacing the file if it exists.
    ///
    /// - Throws: `TraceError.unwritable` when the file cannot be written or the format cannot
    ///   hold the trace (a negative time, a key with a comma in the cachelab format, a time past
    ///   2106 in the binary format, ...).
    public static func write(_ trace: Trace, format: TraceFormat, to path: String) throws(TraceError) {
        let data = try encode(trace, format: format, file: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw .unwritable(file: path, reason: TraceReader.systemError())
        }
        defer { close(descriptor) }
        try data.withUnsafeBufferPointer { buffer throws(TraceError) in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw .unwritable(file: path, reason: TraceReader.systemError())
                }
                offset += written
            }
        }
    }

    /// The bytes `write(_:format:to:)` would write; errors name the trace instead of a file.
    public static func bytes(_ trace: Trace, format: TraceFormat) throws(TraceError) -> [UInt8] {
        try encode(trace, format: format, file: trace.name)
    }

    /// Formats a time in milliseconds as seconds with only the decimals it needs:
    /// 86400500 → `86400.5`, 86400000 → `86400`, 1 → `0.001`.
    public static func seconds(fromMilliseconds milliseconds: Int64) -> String {
        var text: [UInt8] = []
        appendSeconds(milliseconds, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func encode(_ trace: Trace, format: TraceFormat, file: String) throws(TraceError) -> [UInt8] {
        precondition(
            trace.times.count == trace.count && trace.sizes.count == trace.count,
            "a trace's times, keys and sizes must have the same count")
        switch format {
        case .cachelab: return try cachelab(trace, file: file)
        case .csv: return try csv(trace, file: file)
        case .txt: return text(trace)
        case .oracleGeneral: return try oracleGeneral(trace, file: file)
        }
    }
}

// MARK: - Text formats

extension TraceWriter {
    private static func cachelab(_ trace: Trace, file: String) throws(TraceError) -> [UInt8] {
        if let names = trace.keyNames {
            for name in names {
                if let problem = cachelabKeyProblem(name) {
                    throw .unwritable(file: file, reason: "key \"\(name)\" \(problem)")
                }
            }
        }
        let hasEvents = !trace.events.isEmpty
        var out: [UInt8] = []
        out.reserveCapacity(trace.count * 32)
        let title = trace.name.map { $0 == "\n" || $0 == "\r" ? " " : $0 }
        out.append(contentsOf: "# cachelab trace: \(String(title))\n".utf8)
        out.append(contentsOf: (hasEvents ? "time,key,size,event\n" : "time,key,size\n").utf8)

        var previous: Int64 = 0
        func checkTime(_ time: Int64, _ what: @autoclosure () -> String) throws(TraceError) {
            guard time >= 0 else {
                throw .unwritable(file: file, reason: "\(what()) has a negative time")
            }
            guard time >= previous else {
                throw .unwritable(file: file, reason: "\(what()) goes back in time, which the cachelab format forbids")
            }
            previous = time
        }
        var nextEvent = 0
        func writeEvents(upTo position: Int) throws(TraceError) {
            while nextEvent < trace.events.count && trace.events[nextEvent].position <= position {
                let event = trace.events[nextEvent]
                try checkTime(event.time, "event \(nextEvent) (\(event.kind.rawValue))")
                appendSeconds(event.time, to: &out)
                out.append(contentsOf: ",,,".utf8)
                out.append(contentsOf: event.kind.rawValue.utf8)
                out.append(UInt8(ascii: "\n"))
                nextEvent += 1
            }
        }
        for index in 0..<trace.count {
            try writeEvents(upTo: index)
            try checkTime(trace.times[index], "request \(index)")
            let size = trace.sizes[index]
            guard size > 0 else {
                throw .unwritable(file: file, reason: "request \(index) has size \(size); sizes must be positive")
            }
            appendSeconds(trace.times[index], to: &out)
            out.append(UInt8(ascii: ","))
            let key = trace.keys[index]
            if let names = trace.keyNames {
                precondition(key < UInt64(names.count), "every key of a trace with keyNames must have a name")
                out.append(contentsOf: names[Int(key)].utf8)
            } else {
                appendDecimal(key, to: &out)
            }
            out.append(UInt8(ascii: ","))
            appendDecimal(UInt64(size), to: &out)
            if hasEvents {
                out.append(UInt8(ascii: ","))
            }
            out.append(UInt8(ascii: "\n"))
        }
        try writeEvents(upTo: trace.count)
        return out
    }

    /// Why `name` cannot be a key of cachelab's format, or `nil` when it can.
    private static func cachelabKeyProblem(_ name: String) -> String? {
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

    private static func csv(_ trace: Trace, file: String) throws(TraceError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(trace.count * 24)
        out.append(contentsOf: csvHeader.utf8)
        out.append(UInt8(ascii: "\n"))
        for index in 0..<trace.count {
            let time = trace.times[index]
            let size = trace.sizes[index]
            guard time >= 0 else {
                throw .unwritable(file: file, reason: "request \(index) has a negative time")
            }
            guard size > 0 else {
                throw .unwritable(file: file, reason: "request \(index) has size \(size); sizes must be positive")
            }
            appendDecimal(UInt64(time / 1000), to: &out)
            out.append(UInt8(ascii: ","))
            appendDecimal(trace.keys[index], to: &out)
            out.append(UInt8(ascii: ","))
            appendDecimal(UInt64(size), to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    private static func text(_ trace: Trace) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(trace.count * 12)
        for key in trace.keys {
            appendDecimal(key, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// Appends `value` in decimal.
    private static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
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
    private static func appendSeconds(_ milliseconds: Int64, to out: inout [UInt8]) {
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

// MARK: - Binary

extension TraceWriter {
    private static func oracleGeneral(_ trace: Trace, file: String) throws(TraceError) -> [UInt8] {
        let count = trace.count
        // The file's -1 (never again) is libCacheSim's INT64_MAX once read.
        let nextAccess = trace.nextUses().map { $0 == .max ? -1 : $0 }
        for index in 0..<count {
            let time = trace.times[index]
            let size = trace.sizes[index]
            guard time >= 0, time / 1000 <= Int64(UInt32.max) else {
                throw .unwritable(
                    file: file,
                    reason: "request \(index) has time \(seconds(fromMilliseconds: time)) s, "
                        + "outside the 0...\(UInt32.max) seconds the oracleGeneral format holds")
            }
            guard size > 0, size <= Int(UInt32.max) else {
                throw .unwritable(
                    file: file,
                    reason: "request \(index) has size \(size), outside the 1...\(UInt32.max) bytes "
                        + "the oracleGeneral format holds")
            }
        }

        let recordSize = TraceReader.oracleGeneralRecordSize
        var out = [UInt8](repeating: 0, count: count * recordSize)
        out.withUnsafeMutableBytes { raw in
            for index in 0..<count {
                let offset = index * recordSize
                let seconds = UInt32(trace.times[index] / 1000)
                raw.storeBytes(of: seconds.littleEndian, toByteOffset: offset, as: UInt32.self)
                raw.storeBytes(of: trace.keys[index].littleEndian, toByteOffset: offset + 4, as: UInt64.self)
                raw.storeBytes(of: UInt32(trace.sizes[index]).littleEndian, toByteOffset: offset + 12, as: UInt32.self)
                raw.storeBytes(of: nextAccess[index].littleEndian, toByteOffset: offset + 16, as: Int64.self)
            }
        }
        return out
    }
}

// `write` is also the name of the public entry point; call the system's under another name.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
