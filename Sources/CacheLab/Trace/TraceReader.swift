#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads trace files, in cachelab's own format or one of libCacheSim's, plain or
/// zstd-compressed (`.zst`).
///
/// `open` gives a `RequestStream`: the file is read a block at a time and parsed byte by byte,
/// without a `String` per line, into chunks of requests, so a trace of any length is replayed in
/// the memory of a few chunks. `read` drains that stream into a `Trace` for the traces that are
/// held in memory. Every error names the file and the line (text formats) or the record (binary),
/// both counted from 1, or the compressed byte (`.zst`), and says what was wrong in one sentence.
///
/// Conventions shared by the libCacheSim formats (`csv`, `txt`, `oracleGeneral`), as libCacheSim
/// reads them:
/// - times are whole seconds and are stored as milliseconds (×1000); a CSV time may also carry up
///   to 3 decimals. A trace without a time column (every `txt` file) has time 0 on every request:
///   it has no clock, so nothing in it ever expires.
/// - requests of size 0 are dropped and not counted; without a size column every size is 1.
/// - times are taken as they come: only cachelab's own format insists they never go backwards.
public enum TraceReader {
    /// The size of one `oracleGeneral` record:
    /// `u32 time, u64 obj_id, u32 size, i64 next_access_vtime`, little-endian, unpadded.
    static let oracleGeneralRecordSize = OracleGeneralStream.recordSize

    /// Opens the trace file at `path` as a stream of requests.
    ///
    /// - Parameters:
    ///   - path: the file; errors name it as given here. A name ending in `.zst` is read through
    ///     zstd, its format inferred from the rest of the name (`x.oracleGeneral.zst`,
    ///     `x.oracleGeneral.bin.zst`, `x.csv.zst`).
    ///   - format: the file's format; `nil` infers it from the extension (see
    ///     `TraceFormat.inferred(fromPath:)`) and, for a `.csv` file or an unknown extension, from
    ///     the first line: a header holding the columns `time`, `key` and `size` means cachelab's
    ///     own format.
    ///   - columns: where a libCacheSim CSV keeps its fields; `nil` takes them from the file's
    ///     header (see `read(bytes:name:format:columns:)`).
    ///   - readsNextUses: an oracleGeneral file fills each request's next use from its
    ///     `next_access_vtime` into chunks that have room (false: it leaves them alone).
    public static func open(
        path: String, format: TraceFormat? = nil, columns: CSVColumns? = nil, readsNextUses: Bool = true
    ) throws(TraceError) -> any RequestStream {
        var source: any ByteSource = try FileBytes(path: path)
        if TraceFormat.isCompressed(path) { source = try ZstdBytes(source) }
        return try stream(source, format: format, columns: columns, readsNextUses: readsNextUses)
    }

    /// Reads the trace file at `path` into memory: `open(path:format:columns:)`, drained.
    ///
    /// - Returns: the trace, named after the file's last path component.
    public static func read(
        path: String, format: TraceFormat? = nil, columns: CSVColumns? = nil
    ) throws(TraceError) -> Trace {
        var trace = try open(path: path, format: format, columns: columns).readAll()
        trace.name = String(path.split(separator: "/").last ?? Substring(path))
        return trace
    }

    /// Parses a trace held in memory, as `read(path:format:columns:)` parses a file.
    ///
    /// For a libCacheSim CSV read without `columns`, line 1 must be a header naming an id column
    /// (`id`, `obj_id`, `object_id`, `key`, `lbn` or `lba`); a `time`, `timestamp` or
    /// `clock_time` column and a `size`, `obj_size` or `object_size` column are used when present.
    ///
    /// - Parameters:
    ///   - bytes: the file's contents (zstd-compressed when `name` ends in `.zst`).
    ///   - name: the trace's name, used in place of a file name in errors.
    ///   - format: as in `read(path:format:columns:)`, inferred from `name` when `nil`.
    ///   - columns: as in `read(path:format:columns:)`; only the `csv` format takes it.
    public static func read(
        bytes: [UInt8], name: String, format: TraceFormat? = nil, columns: CSVColumns? = nil
    ) throws(TraceError) -> Trace {
        try open(bytes: bytes, name: name, format: format, columns: columns).readAll()
    }

    /// Opens a trace held in memory as a stream, as `open(path:format:columns:)` opens a file.
    public static func open(
        bytes: [UInt8], name: String, format: TraceFormat? = nil, columns: CSVColumns? = nil
    ) throws(TraceError) -> any RequestStream {
        var source: any ByteSource = MemoryBytes(bytes, name: name)
        if TraceFormat.isCompressed(name) { source = try ZstdBytes(source) }
        return try stream(source, format: format, columns: columns)
    }

    /// A recording part: cachelab's format, where a file of events alone is allowed.
    static func readCachelab(_ bytes: [UInt8], file: String, requiresRequests: Bool) throws(TraceError) -> Trace {
        let lines = LineReader(MemoryBytes(bytes, name: file))
        return try CachelabStream(lines, requiresRequests: requiresRequests).readAll()
    }

    /// The reader for `source` in the format given or inferred.
    private static func stream(
        _ source: any ByteSource, format: TraceFormat?, columns: CSVColumns?, readsNextUses: Bool = true
    ) throws(TraceError) -> any RequestStream {
        let file = source.file
        let inferred = format ?? TraceFormat.inferred(fromPath: file)
        if let inferred, inferred != .csv || columns != nil || format != nil {
            if inferred == .oracleGeneral && columns == nil {
                return OracleGeneralStream(source, readsNextUses: readsNextUses)
            }
            return try stream(source, resolved: inferred, lines: nil, columns: columns)
        }
        // A `.csv` name, or none that helps: cachelab's header decides, so look at the first
        // lines and read them again.
        let lines = LineReader(source, rewindable: true)
        let resolved = try resolveFormat(lines, file: file, format: format, columns: columns)
        lines.rewind()
        return try stream(source, resolved: resolved, lines: lines, columns: columns)
    }

    private static func stream(
        _ source: any ByteSource, resolved: TraceFormat, lines: LineReader?, columns: CSVColumns?
    ) throws(TraceError) -> any RequestStream {
        if columns != nil && resolved != .csv {
            throw .invalidOptions(
                "\(source.file): a column spec applies only to the csv format, not to \(resolved.rawValue)")
        }
        switch resolved {
        case .oracleGeneral: return OracleGeneralStream(source)
        case .cachelab: return try CachelabStream(lines ?? LineReader(source), requiresRequests: true)
        case .csv: return try CSVStream(lines ?? LineReader(source), columns: columns)
        case .txt: return TextStream(lines ?? LineReader(source))
        }
    }

    /// The format to parse `bytes` as: the one given, else the one the name implies, with a
    /// `.csv` (or unknown) file taken for cachelab's own format when its header says so.
    static func resolveFormat(
        bytes: [UInt8], file: String, format: TraceFormat?, columns: CSVColumns?
    ) throws(TraceError) -> TraceFormat {
        try resolveFormat(LineReader(MemoryBytes(bytes, name: file)), file: file, format: format, columns: columns)
    }

    private static func resolveFormat(
        _ lines: LineReader, file: String, format: TraceFormat?, columns: CSVColumns?
    ) throws(TraceError) -> TraceFormat {
        if let format {
            return format
        }
        let inferred = TraceFormat.inferred(fromPath: file)
        if let inferred, inferred != .csv {
            return inferred
        }
        // A `.csv` name, or none that helps: cachelab's header decides, else a given column
        // spec means libCacheSim's CSV.
        if columns == nil, try hasCachelabHeader(lines) {
            return .cachelab
        }
        if inferred == .csv || columns != nil {
            return .csv
        }
        throw .invalidOptions(
            "\(file): cannot tell the trace format from the file name; give one of "
                + TraceFormat.allCases.map(\.rawValue).joined(separator: ", "))
    }

    /// Whether the first line that is not a `#` comment names the columns `time`, `key` and
    /// `size`, as cachelab's own format requires.
    private static func hasCachelabHeader(_ lines: LineReader) throws(TraceError) -> Bool {
        while let line = try lines.next() {
            let base = lines.base
            if trimmed(line, in: base).isEmpty || base[line.lowerBound] == UInt8(ascii: "#") {
                continue
            }
            var names: Set<String> = []
            for field in base[line].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                names.insert(String(decoding: field, as: UTF8.self).filter { $0 != " " && $0 != "\t" })
            }
            return names.isSuperset(of: ["time", "key", "size"])
        }
        return false
    }
}

// MARK: - Lines and fields

extension TraceReader {
    /// `range` without leading and trailing spaces and tabs.
    static func trimmed(_ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && (base[lower] == UInt8(ascii: " ") || base[lower] == UInt8(ascii: "\t")) {
            lower += 1
        }
        while upper > lower
            && (base[upper - 1] == UInt8(ascii: " ") || base[upper - 1] == UInt8(ascii: "\t"))
        {
            upper -= 1
        }
        return lower..<upper
    }

    /// The bytes of `range` as text for an error message, shortened when long.
    static func quoted(_ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>) -> String {
        let limit = 40
        let shown = range.count > limit ? range.lowerBound..<(range.lowerBound + limit) : range
        let text = String(decoding: UnsafeBufferPointer(rebasing: base[shown]), as: UTF8.self)
        return "\"" + text + (range.count > limit ? "…\"" : "\"")
    }
}

// MARK: - Numbers

extension TraceReader {
    /// The unsigned decimal integer in `range`, or `nil` when it is empty, holds anything but
    /// digits or does not fit in 64 bits.
    @inline(__always)
    static func unsignedInteger(_ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !range.isEmpty else {
            return nil
        }
        var value: UInt64 = 0
        for index in range {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else {
                return nil
            }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1 && !overflow2 else {
                return nil
            }
            value = sum
        }
        return value
    }

    /// Whether `range` is a non-empty run of digits (a number, if perhaps too large).
    static func isDigits(_ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>) -> Bool {
        !range.isEmpty && range.allSatisfy { base[$0] &- UInt8(ascii: "0") < 10 }
    }

    /// Why `range` is not an unsigned 64-bit integer, as the end of a sentence.
    static func unsignedIntegerProblem(_ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>) -> String {
        isDigits(range, in: base) ? "does not fit in 64 bits" : "is not an unsigned integer"
    }

    /// Why the size in `range`, an integer, is refused, as the end of a sentence.
    static func tooLarge(_ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>) -> String {
        "size \(quoted(range, in: base)) is larger than \(Trace.largestSize) bytes (4 GiB), the largest object a trace may hold"
    }

    /// The time in `range`, given in seconds with up to 3 decimals (`86400`, `86400.5`), as
    /// milliseconds, computed exactly without floating point. `nil` when malformed or too large.
    @inline(__always)
    static func milliseconds(_ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>) -> Int64? {
        var seconds: Int64 = 0
        var index = range.lowerBound
        while index < range.upperBound && base[index] != UInt8(ascii: ".") {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else {
                return nil
            }
            let (times10, overflow1) = seconds.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(digit))
            guard !overflow1 && !overflow2 else {
                return nil
            }
            seconds = sum
            index += 1
        }
        guard index > range.lowerBound else {
            return nil
        }
        var fraction: Int64 = 0
        var scale: Int64 = 1000
        if index < range.upperBound {
            // A point must be followed by 1 to 3 digits.
            index += 1
            let decimals = range.upperBound - index
            guard decimals >= 1 && decimals <= 3 else {
                return nil
            }
            while index < range.upperBound {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else {
                    return nil
                }
                scale /= 10
                fraction += Int64(digit) * scale
                index += 1
            }
        }
        let (ms, overflow1) = seconds.multipliedReportingOverflow(by: 1000)
        let (total, overflow2) = ms.addingReportingOverflow(fraction)
        return overflow1 || overflow2 ? nil : total
    }

    /// Why `range` is not a time in seconds, as the end of a sentence.
    static func timeProblem(_ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>) -> String {
        let text = Array(UnsafeBufferPointer(rebasing: base[range]))
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let wellFormed =
            parts.count <= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 &- UInt8(ascii: "0") < 10 } }
        guard wellFormed else {
            return "is not a time in seconds (a number such as 86400 or 86400.5)"
        }
        if parts.count == 2 && parts[1].count > 3 {
            return "has more than 3 decimals (times are kept in milliseconds)"
        }
        return "is too large"
    }
}

// MARK: - Files

extension TraceReader {
    /// The whole contents of the file at `path` (a recording's part: a few megabytes).
    static func contents(ofFile path: String) throws(TraceError) -> [UInt8] {
        let file = try FileBytes(path: path)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(file.total ?? 0)
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { block.deallocate() }
        while true {
            let count = try file.read(into: block)
            if count == 0 { return bytes }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[..<count]))
        }
    }

    /// The C library's sentence for the current `errno`.
    static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
