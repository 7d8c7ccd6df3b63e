/// Reads libCacheSim's CSV: one request per line, numeric ids, fields where a `CSVColumns` spec
/// (or the header, when no spec is given) says.
final class CSVStream: RequestStream {
    /// Header names that locate a column when no column spec is given, in order of preference.
    private static let idNames: [String] = ["id", "obj_id", "object_id", "key", "lbn", "lba"]
    private static let timeNames: [String] = ["time", "timestamp", "clock_time"]
    private static let sizeNames: [String] = ["size", "obj_size", "object_size"]

    private let lines: LineReader
    private let spec: CSVColumns
    /// Spaces around a number are ignored, unless a space is what separates the fields.
    private let trimsSpaces: Bool
    /// Line 1, already read to find the columns; parsed by the first `next`.
    private var pendingFirst: Range<Int>?
    private var isFirstLine = true
    private var done = false
    private var produced = 0
    private var ranges = FieldRanges()

    var name: String { lines.file }
    var progress: (done: Int, total: Int?) { (lines.consumed, lines.total) }

    init(_ lines: LineReader, columns: CSVColumns?) throws(TraceError) {
        self.lines = lines
        guard let first = try lines.next() else {
            throw .empty(file: lines.file)
        }
        pendingFirst = first
        if let columns {
            spec = columns
        } else {
            spec = try Self.columnsFromHeader(first, in: lines.base, file: lines.file)
        }
        trimsSpaces = spec.delimiter != UInt8(ascii: " ") && spec.delimiter != UInt8(ascii: "\t")
    }

    func next(into chunk: inout RequestChunk) throws(TraceError) -> Bool {
        try chunk.fill(from: produced) { writer throws(TraceError) in
            while !writer.isFull && !done {
                let line: Range<Int>
                if let first = pendingFirst {
                    line = first
                    pendingFirst = nil
                } else if let next = try lines.next(requestsSoFar: produced + writer.count) {
                    line = next
                } else {
                    done = true
                    break
                }
                defer { isFirstLine = false }
                let base = lines.base
                if line.isEmpty || TraceReader.trimmed(line, in: base).isEmpty {
                    guard try lines.restIsBlank() else {
                        throw .malformedLine(file: lines.file, line: lines.number, reason: "the line is empty")
                    }
                    done = true
                    break
                }
                let found = ranges.split(
                    line, in: base, delimiter: spec.delimiter, spec: spec, trimsSpaces: trimsSpaces)
                let isHeader: Bool
                switch spec.header {
                case .auto: isHeader = isFirstLine && !(found >= spec.id && TraceReader.isDigits(ranges.id, in: base))
                case .true: isHeader = isFirstLine
                case .false: isHeader = false
                }
                guard !isHeader else { continue }
                guard found >= spec.lastColumn else {
                    throw .malformedLine(
                        file: lines.file, line: lines.number,
                        reason:
                            "column \(spec.lastColumn) is missing: the line has \(found) field\(found == 1 ? "" : "s")"
                    )
                }
                try appendRequest(in: base, to: &writer)
            }
        }
        produced += chunk.count
        if done && produced == 0 {
            throw .empty(file: lines.file)
        }
        return chunk.count > 0
    }

    /// Parses the current line's fields and appends its request, unless its size is 0.
    @inline(__always)
    private func appendRequest(in base: UnsafeBufferPointer<UInt8>, to writer: inout ChunkWriter) throws(TraceError) {
        guard let id = TraceReader.unsignedInteger(ranges.id, in: base) else {
            throw malformed(
                "id \(TraceReader.quoted(ranges.id, in: base)) \(TraceReader.unsignedIntegerProblem(ranges.id, in: base))"
            )
        }
        var size = 1
        if spec.size != nil {
            guard let value = TraceReader.unsignedInteger(ranges.size, in: base) else {
                throw malformed(
                    "size \(TraceReader.quoted(ranges.size, in: base)) is not a non-negative integer of bytes")
            }
            guard value <= Trace.largestSize else {
                throw malformed(TraceReader.tooLarge(ranges.size, in: base))
            }
            // libCacheSim's reader skips requests of size 0.
            guard value > 0 else {
                return
            }
            size = Int(value)
        }
        var time: Int64 = 0
        if spec.time != nil {
            guard let value = TraceReader.milliseconds(ranges.time, in: base) else {
                throw malformed(
                    "time \(TraceReader.quoted(ranges.time, in: base)) \(TraceReader.timeProblem(ranges.time, in: base))"
                )
            }
            time = value
        }
        writer.append(time: time, key: id, size: size)
    }

    private func malformed(_ reason: String) -> TraceError {
        .malformedLine(file: lines.file, line: lines.number, reason: reason)
    }

    /// The column spec a header line implies, for a CSV read without one.
    private static func columnsFromHeader(
        _ line: Range<Int>, in base: UnsafeBufferPointer<UInt8>, file: String
    ) throws(TraceError) -> CSVColumns {
        let names = base[line].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).lowercased().filter { $0 != " " && $0 != "\t" }
        }
        func column(_ candidates: [String]) -> Int? {
            for candidate in candidates {
                if let index = names.firstIndex(of: candidate) {
                    return index + 1
                }
            }
            return nil
        }
        guard let id = column(idNames) else {
            throw .invalidOptions(
                "\(file): no column spec was given and line 1 is not a header naming an id column ("
                    + idNames.joined(separator: ", ") + "); give one such as time=2,id=5,size=4")
        }
        return CSVColumns(time: column(timeNames), id: id, size: column(sizeNames), header: .true)
    }
}

/// Where the id, time and size fields of one CSV line are, as byte ranges.
private struct FieldRanges {
    var id: Range<Int> = 0..<0
    var time: Range<Int> = 0..<0
    var size: Range<Int> = 0..<0

    /// Records the ranges of the fields `spec` wants and returns how many fields were seen
    /// (the scan stops after the last wanted one).
    @inline(__always)
    mutating func split(
        _ line: Range<Int>, in base: UnsafeBufferPointer<UInt8>, delimiter: UInt8, spec: CSVColumns,
        trimsSpaces: Bool
    ) -> Int {
        let last = spec.lastColumn
        var column = 1
        var start = line.lowerBound
        var index = line.lowerBound
        while true {
            if index == line.upperBound || base[index] == delimiter {
                var field = start..<index
                if trimsSpaces {
                    field = TraceReader.trimmed(field, in: base)
                }
                if column == spec.id {
                    id = field
                } else if column == spec.time {
                    time = field
                } else if column == spec.size {
                    size = field
                }
                if column == last || index == line.upperBound {
                    return column
                }
                column += 1
                start = index + 1
            }
            index += 1
        }
    }
}
