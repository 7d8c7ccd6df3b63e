/// Where a libCacheSim CSV keeps each field of a request, as 1-based column numbers.
///
/// Written as libCacheSim writes its CSV options, e.g. `time=2,id=5,size=4`: `id` is required,
/// `time` and `size` are optional. Two more keys are accepted:
/// - `header=auto|true|false` (default `auto`): with `auto`, line 1 is a header exactly when its
///   id field is not an unsigned integer; no other line is ever taken for a header.
/// - `delimiter=comma|tab|space|semicolon|pipe`, or any one character other than `,` and `=`
///   (default `comma`).
///
/// Without a time column every request has time 0 (the trace has no clock, so nothing expires);
/// without a size column every request has size 1.
public struct CSVColumns: Sendable, Equatable, CustomStringConvertible {
    /// Whether the file starts with a header line.
    public enum Header: String, Sendable, Equatable, CaseIterable {
        /// Line 1 is a header when its id field is not an unsigned integer.
        case auto
        /// Line 1 is always a header.
        case `true`
        /// There is no header: line 1 is a request.
        case `false`
    }

    /// Column of the time in seconds, or `nil` when the file has none.
    public var time: Int?
    /// Column of the unsigned 64-bit object id.
    public var id: Int
    /// Column of the size in bytes, or `nil` when the file has none.
    public var size: Int?
    /// Whether the file starts with a header line.
    public var header: Header
    /// The byte between two fields.
    public var delimiter: UInt8

    /// Creates a spec from column numbers, counted from 1.
    public init(
        time: Int? = nil, id: Int, size: Int? = nil, header: Header = .auto,
        delimiter: UInt8 = UInt8(ascii: ",")
    ) {
        precondition(id >= 1 && (time ?? 1) >= 1 && (size ?? 1) >= 1, "CSV columns count from 1")
        self.time = time
        self.id = id
        self.size = size
        self.header = header
        self.delimiter = delimiter
    }

    /// Parses a spec such as `time=2,id=5,size=4`.
    ///
    /// - Throws: `TraceError.invalidOptions` naming the first wrong entry: an unknown key, a
    ///   column that is not a positive integer, a key given twice, two fields in one column or a
    ///   missing `id`.
    public init(parsing spec: String) throws(TraceError) {
        var time: Int?
        var id: Int?
        var size: Int?
        var header = Header.auto
        var delimiter = UInt8(ascii: ",")
        var seen: Set<Substring> = []
        let entries = spec.split(separator: ",", omittingEmptySubsequences: false)
        for entry in entries {
            let trimmed = entry.trimmingSpaces
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw .invalidOptions(
                    "column spec \"\(spec)\": \"\(trimmed)\" is not key=value (expected e.g. time=2,id=5,size=4)"
                )
            }
            let key = trimmed[..<equals].trimmingSpaces.lowercased()[...]
            let value = trimmed[trimmed.index(after: equals)...].trimmingSpaces
            guard !seen.contains(key) else {
                throw .invalidOptions("column spec \"\(spec)\": \(key) is given twice")
            }
            seen.insert(key)
            switch key {
            case "time", "id", "size":
                guard let column = Int(value), column >= 1 else {
                    throw .invalidOptions(
                        "column spec \"\(spec)\": \(key)=\(value) is not a column number (columns count from 1)"
                    )
                }
                switch key {
                case "time": time = column
                case "id": id = column
                default: size = column
                }
            case "header":
                guard let parsed = Header(rawValue: value.lowercased()) else {
                    throw .invalidOptions(
                        "column spec \"\(spec)\": header=\(value) is not one of auto, true, false")
                }
                header = parsed
            case "delimiter":
                guard let parsed = Self.delimiter(named: value) else {
                    throw .invalidOptions(
                        "column spec \"\(spec)\": delimiter=\(value) is not one of comma, tab, space, "
                            + "semicolon, pipe or a single character"
                    )
                }
                delimiter = parsed
            default:
                throw .invalidOptions(
                    "column spec \"\(spec)\": unknown key \"\(key)\" (expected time, id, size, header or delimiter)"
                )
            }
        }
        guard let id else {
            throw .invalidOptions("column spec \"\(spec)\" names no id column (expected e.g. time=2,id=5,size=4)")
        }
        if let time, time == id || time == size {
            throw .invalidOptions("column spec \"\(spec)\": column \(time) is given twice")
        }
        if let size, size == id {
            throw .invalidOptions("column spec \"\(spec)\": column \(size) is given twice")
        }
        self.init(time: time, id: id, size: size, header: header, delimiter: delimiter)
    }

    /// The spec in the form `init(parsing:)` reads, e.g. `time=2,id=5,size=4`.
    public var description: String {
        var parts: [String] = []
        if let time { parts.append("time=\(time)") }
        parts.append("id=\(id)")
        if let size { parts.append("size=\(size)") }
        if header != .auto { parts.append("header=\(header.rawValue)") }
        if delimiter != UInt8(ascii: ",") {
            let name = Self.delimiterNames.first { $0.value == delimiter }?.key
            parts.append("delimiter=\(name ?? String(UnicodeScalar(delimiter)))")
        }
        return parts.joined(separator: ",")
    }

    /// The largest column number the spec reads.
    var lastColumn: Int {
        max(id, time ?? 0, size ?? 0)
    }

    private static let delimiterNames: [String: UInt8] = [
        "comma": UInt8(ascii: ","), "tab": UInt8(ascii: "\t"), "space": UInt8(ascii: " "),
        "semicolon": UInt8(ascii: ";"), "pipe": UInt8(ascii: "|"),
    ]

    private static func delimiter(named name: Substring) -> UInt8? {
        if let known = delimiterNames[name.lowercased()] {
            return known
        }
        // One ASCII character; `,` and `=` would be read as part of the spec itself.
        guard name.utf8.count == 1, let byte = name.utf8.first, byte != UInt8(ascii: "="),
            byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r")
        else {
            return nil
        }
        return byte
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
