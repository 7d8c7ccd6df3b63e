// libCacheSim's text formats: CSV with numeric ids, and one id per line.

extension TraceReader {
    /// Header names that locate a column when no column spec is given, in order of preference.
    private static let idNames: [String] = ["id", "obj_id", "object_id", "key", "lbn", "lba"]
    private static let timeNames: [String] = ["time", "timestamp", "clock_time"]
    private static let sizeNames: [String] = ["size", "obj_size", "object_size"]

    /// Reads libCacheSim's CSV: one request per line, fields where `columns` says.
    static func readCSV(_ bytes: [UInt8], file: String, columns: CSVColumns?) throws(TraceError) -> Trace {
        try bytes.withUnsafeBufferPointer { base throws(TraceError) -> Trace in
            var lines = Lines(base)
            guard var line = lines.next() else {
                throw .empty(file: file)
            }
            let spec: CSVColumns
            if let columns {
                spec = columns
            } else {
                spec = try columnsFromHeader(line, in: base, file: file)
            }
            let delimiter = spec.delimiter
            // Spaces around a number are ignored, unless a space is what separates the fields.
            let trimsSpaces = delimiter != UInt8(ascii: " ") && delimiter != UInt8(ascii: "\t")
            let wanted = spec.lastColumn
            var trace = Trace(name: file)
            trace.reserveCapacity(lines.countAll())

            var ranges = FieldRanges()
            var isFirstLine = true
            while true {
                defer {
                    isFirstLine = false
                }
                if line.isEmpty || trimmed(line, in: base).isEmpty {
                    guard lines.restIsBlank() else {
                        throw .malformedLine(file: file, line: lines.number, reason: "the line is empty")
                    }
                    break
                }
                let found = ranges.split(line, in: base, delimiter: delimiter, spec: spec, trimsSpaces: trimsSpaces)
                let isHeader: Bool
                switch spec.header {
                case .auto: isHeader = isFirstLine && !(found >= spec.id && isDigits(ranges.id, in: base))
                case .true: isHeader = isFirstLine
                case .false: isHeader = false
                }
                if !isHeader {
                    guard found >= wanted else {
                        throw .malformedLine(
                            file: file, line: lines.number,
                            reason: "column \(wanted) is missing: the line has \(found) field\(found == 1 ? "" : "s")")
                    }
                    try appendRequest(ranges, spec: spec, in: base, to: &trace, file: file, line: lines.number)
                }
                guard let next = lines.next() else {
                    break
                }
                line = next
            }
            guard trace.count > 0 else {
                throw .empty(file: file)
            }
            return trace
        }
    }

    /// Parses one CSV line's fields and appends its request, unless its size is 0.
    @inline(__always)
    private static func appendRequest(
        _ ranges: FieldRanges, spec: CSVColumns, in base: UnsafeBufferPointer<UInt8>, to trace: inout Trace,
        file: String, line: Int
    ) throws(TraceError) {
        guard let id = unsignedInteger(ranges.id, in: base) else {
            throw .malformedLine(
                file: file, line: line,
                reason: "id \(quoted(ranges.id, in: base)) \(unsignedIntegerProblem(ranges.id, in: base))")
        }
        var size = 1
        if spec.size != nil {
            guard let value = unsignedInteger(ranges.size, in: base) else {
                throw .malformedLine(
                    file: file, line: line,
                    reason: "size \(quoted(ranges.size, in: base)) is not a non-negative integer of bytes")
            }
            guard value <= Trace.largestSize else {
                throw .malformedLine(file: file, line: line, reason: tooLarge(ranges.size, in: base))
            }
            // libCacheSim's reader skips requests of size 0.
            guard value > 0 else {
                return
            }
            size = Int(value)
        }
        var time: Int64 = 0
        if spec.time != nil {
            guard let value = milliseconds(ranges.time, in: base) else {
                throw .malformedLine(
                    file: file, line: line,
                    reason: "time \(quoted(ranges.time, in: base)) \(timeProblem(ranges.time, in: base))")
            }
            time = value
        }
        trace.append(time: time, key: id, size: size)
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

    /// Reads libCacheSim's plain text: one unsigned 64-bit id per line, size 1, time 0.
    static func readText(_ bytes: [UInt8], file: String) throws(TraceError) -> Trace {
        try bytes.withUnsafeBufferPointer { base throws(TraceError) -> Trace in
            var lines = Lines(base)
            var trace = Trace(name: file)
            trace.reserveCapacity(lines.countAll())
            while let line = lines.next() {
                let field = trimmed(line, in: base)
                guard let id = unsignedInteger(field, in: base) else {
                    if field.isEmpty {
                        guard lines.restIsBlank() else {
                            throw .malformedLine(file: file, line: lines.number, reason: "the line is empty")
                        }
                        break
                    }
                    throw .malformedLine(
                        file: file, line: lines.number,
                        reason: "id \(quoted(field, in: base)) \(unsignedIntegerProblem(field, in: base))")
                }
                trace.append(time: 0, key: id, size: 1)
            }
            guard trace.count > 0 else {
                throw .empty(file: file)
            }
            return trace
        }
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
