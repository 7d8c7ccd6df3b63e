#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads trace files into a `Trace`, in cachelab's own format or one of libCacheSim's.
///
/// The whole file is read into memory once and parsed byte by byte, without a `String` per line:
/// a few megabytes of CSV take milliseconds. Every error names the file and the 1-based line
/// (text formats) or the 0-based record (binary), and says what was wrong in one sentence.
///
/// Conventions shared by the libCacheSim formats (`csv`, `txt`, `oracleGeneral`), as libCacheSim
/// reads them:
/// - times are whole seconds and are stored as milliseconds (×1000); a CSV time may also carry up
///   to 3 decimals. A trace without a time column (every `txt` file) has time 0 on every request:
///   it has no clock, so nothing in it ever expires.
/// - requests of size 0 are dropped and not counted; without a size column every size is 1.
/// - times are taken as they come: only cachelab's own format insists they never go backwards.
public enum TraceReader {
    /// Reads the trace file at `path`.
    ///
    /// - Parameters:
    ///   - path: the file; errors name it as given here.
    ///   - format: the file's format; `nil` infers it from the extension (see
    ///     `TraceFormat.inferred(fromPath:)`) and, for a `.csv` file or an unknown extension, from
    ///     the first line: a header holding the columns `time`, `key` and `size` means cachelab's
    ///     own format.
    ///   - columns: where a libCacheSim CSV keeps its fields; `nil` takes them from the file's
    ///     header (see `read(bytes:name:format:columns:)`).
    /// - Returns: the trace, named after the file's last path component.
    public static func read(
        path: String, format: TraceFormat? = nil, columns: CSVColumns? = nil
    ) throws(TraceError) -> Trace {
        let bytes = try contents(ofFile: path)
        var trace = try parse(bytes: bytes, file: path, format: format, columns: columns)
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
    ///   - bytes: the file's contents.
    ///   - name: the trace's name, used in place of a file name in errors.
    ///   - format: as in `read(path:format:columns:)`, inferred from `name` when `nil`.
    ///   - columns: as in `read(path:format:columns:)`; only the `csv` format takes it.
    public static func read(
        bytes: [UInt8], name: String, format: TraceFormat? = nil, columns: CSVColumns? = nil
    ) throws(TraceError) -> Trace {
        try parse(bytes: bytes, file: name, format: format, columns: columns)
    }

    private static func parse(
        bytes: [UInt8], file: String, format: TraceFormat?, columns: CSVColumns?
    ) throws(TraceError) -> Trace {
        let resolved = try resolveFormat(bytes: bytes, file: file, format: format, columns: columns)
        if columns != nil && resolved != .csv {
            throw .invalidOptions(
                "\(file): a column spec applies only to the csv format, not to \(resolved.rawValue)")
        }
        var trace: Trace
        switch resolved {
        case .cachelab: trace = try readCachelab(bytes, file: file)
        case .csv: trace = try readCSV(bytes, file: file, columns: columns)
        case .txt: trace = try readText(bytes, file: file)
        case .oracleGeneral: trace = try readOracleGeneral(bytes, file: file)
        }
        trace.name = file
        return trace
    }

    /// The format to parse `bytes` as: the one given, else the one the name implies, with a
    /// `.csv` (or unknown) file taken for cachelab's own format when its header says so.
    static func resolveFormat(
        bytes: [UInt8], file: String, format: TraceFormat?, columns: CSVColumns?
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
        if columns == nil && hasCachelabHeader(bytes) {
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
    static func hasCachelabHeader(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { base in
            var lines = Lines(base)
            while let line = lines.next() {
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
}

// MARK: - Lines and fields

extension TraceReader {
    /// The lines of a text file, as byte ranges without their `\n` or `\r\n`, numbered from 1.
    struct Lines {
        let base: UnsafeBufferPointer<UInt8>
        /// Where the next line starts.
        private(set) var position = 0
        /// The 1-based number of the line `next()` returned last.
        private(set) var number = 0

        init(_ base: UnsafeBufferPointer<UInt8>) {
            self.base = base
        }

        /// The next line, or `nil` past the end (a final `\n` does not start another line).
        mutating func next() -> Range<Int>? {
            guard position < base.count, let start = base.baseAddress else {
                return nil
            }
            let lineStart = position
            var end = base.count
            if let found = memchr(start + position, Int32(UInt8(ascii: "\n")), base.count - position) {
                end = start.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            position = end + 1
            number += 1
            if end > lineStart && base[end - 1] == UInt8(ascii: "\r") {
                end -= 1
            }
            return lineStart..<end
        }

        /// Whether nothing but spaces, tabs and line breaks follows the current line.
        func restIsBlank() -> Bool {
            var index = position
            while index < base.count {
                switch base[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): index += 1
                default: return false
                }
            }
            return true
        }

        /// The number of lines in the whole buffer, to reserve storage.
        func countAll() -> Int {
            guard let start = base.baseAddress else {
                return 0
            }
            var count = 0
            var offset = 0
            while offset < base.count,
                let found = memchr(start + offset, Int32(UInt8(ascii: "\n")), base.count - offset)
            {
                count += 1
                offset = start.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            }
            return base.last == UInt8(ascii: "\n") || base.isEmpty ? count : count + 1
        }
    }

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
    /// The whole contents of the file at `path`.
    static func contents(ofFile path: String) throws(TraceError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw .unreadable(file: path, reason: systemError())
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(file: path, reason: systemError())
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            throw .unreadable(file: path, reason: "it is a directory")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        let chunkSize = 1 << 20
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = systemRead(descriptor, chunk.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(file: path, reason: systemError())
            }
            if count == 0 {
                return bytes
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
    }

    /// The C library's sentence for the current `errno`.
    static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

// `read` is also the name of the public entry points; call the system's under another name.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
