#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// cachelab's own format, defined in `traces/README.md`.

extension TraceReader {
    /// The columns cachelab's format requires, in the order its writer puts them.
    static let cachelabRequiredColumns = ["time", "key", "size"]

    /// Reads cachelab's own CSV: `#` comment lines, then a header naming at least `time`, `key`
    /// and `size` (and perhaps `event`), then one request or event per line.
    ///
    /// Keys are interned in order of first appearance to ids 0, 1, 2, …, and `keyNames` holds
    /// their strings. Columns the header names but cachelab does not know are skipped.
    ///
    /// - Parameter requiresRequests: whether a file without a request is an error (`empty`); a
    ///   recording's part may hold only events (a launch that showed no image).
    static func readCachelab(_ bytes: [UInt8], file: String, requiresRequests: Bool = true) throws(TraceError) -> Trace
    {
        try bytes.withUnsafeBufferPointer { base throws(TraceError) -> Trace in
            var lines = Lines(base)
            var headerLine: Range<Int>?
            while let line = lines.next() {
                if !trimmed(line, in: base).isEmpty && base[line.lowerBound] != UInt8(ascii: "#") {
                    headerLine = line
                    break
                }
            }
            guard let headerLine else {
                throw .empty(file: file)
            }
            let layout = try CachelabLayout(header: headerLine, in: base, file: file, line: lines.number)

            var trace = Trace(name: file)
            trace.reserveCapacity(lines.countAll())
            var interner = KeyInterner()
            var fields = CachelabFields()
            var previousTime: Int64 = 0
            while let line = lines.next() {
                let number = lines.number
                if trimmed(line, in: base).isEmpty {
                    guard lines.restIsBlank() else {
                        throw .malformedLine(file: file, line: number, reason: "the line is empty")
                    }
                    break
                }
                let found = fields.split(line, in: base, layout: layout)
                guard found == layout.fieldCount else {
                    let missing = found < layout.fieldCount
                    throw .malformedLine(
                        file: file, line: number,
                        reason: "the line has \(found) field\(found == 1 ? "" : "s") "
                            + "but the header names \(layout.fieldCount)"
                            + (missing ? "" : " (a key cannot hold a comma)"))
                }

                let timeField = trimmed(fields.time, in: base)
                guard let time = milliseconds(timeField, in: base) else {
                    throw .malformedLine(
                        file: file, line: number,
                        reason: "time \(quoted(timeField, in: base)) \(timeProblem(timeField, in: base))")
                }
                guard time >= previousTime else {
                    throw .malformedLine(
                        file: file, line: number,
                        reason: "time \(TraceWriter.seconds(fromMilliseconds: time)) is earlier than the "
                            + "\(TraceWriter.seconds(fromMilliseconds: previousTime)) before it; "
                            + "times must not go backwards")
                }
                previousTime = time

                if let eventField = fields.event,
                    let kind = try eventKind(eventField, in: base, file: file, line: number)
                {
                    guard fields.key.isEmpty && trimmed(fields.size, in: base).isEmpty else {
                        throw .malformedLine(
                            file: file, line: number,
                            reason: "a \(kind.rawValue) event takes no key and no size; leave both empty")
                    }
                    trace.appendEvent(kind, time: time)
                    continue
                }

                let key = fields.key
                guard !key.isEmpty else {
                    throw .malformedLine(file: file, line: number, reason: "the key is empty")
                }
                guard memchr(base.baseAddress! + key.lowerBound, Int32(UInt8(ascii: "\"")), key.count) == nil else {
                    throw .malformedLine(
                        file: file, line: number, reason: "key \(quoted(key, in: base)) holds a double quote")
                }
                // A line ends at \n (or \r\n); a lone \r inside one is no key the writer could
                // write back.
                guard memchr(base.baseAddress! + key.lowerBound, Int32(UInt8(ascii: "\r")), key.count) == nil else {
                    throw .malformedLine(
                        file: file, line: number, reason: "key \(quoted(key, in: base)) holds a carriage return")
                }
                let sizeField = trimmed(fields.size, in: base)
                guard let size = unsignedInteger(sizeField, in: base), size > 0 else {
                    throw .malformedLine(
                        file: file, line: number,
                        reason: "size \(quoted(sizeField, in: base)) is not a positive integer of bytes")
                }
                guard size <= Trace.largestSize else {
                    throw .malformedLine(file: file, line: number, reason: tooLarge(sizeField, in: base))
                }
                let id = try interner.intern(key, in: base, file: file, line: number)
                trace.append(time: time, key: id, size: Int(size))
            }
            guard trace.count > 0 || !requiresRequests else {
                throw .empty(file: file)
            }
            trace.keyNames = interner.names
            return trace
        }
    }

    /// The event a line's `event` field names, or `nil` for a request (empty or `get`).
    private static func eventKind(
        _ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>, file: String, line: Int
    ) throws(TraceError) -> TraceEvent.Kind? {
        let field = trimmed(range, in: base)
        if field.isEmpty || base[field].elementsEqual("get".utf8) {
            return nil
        }
        for kind in TraceEvent.Kind.allCases where base[field].elementsEqual(kind.rawValue.utf8) {
            return kind
        }
        throw .malformedLine(
            file: file, line: line,
            reason: "event \(quoted(field, in: base)) is not one of get, "
                + TraceEvent.Kind.allCases.map(\.rawValue).joined(separator: ", "))
    }
}

/// Which field of a cachelab line holds what, read from the header.
private struct CachelabLayout {
    var fieldCount: Int
    var time: Int
    var key: Int
    var size: Int
    var event: Int?

    init(header: Range<Int>, in base: UnsafeBufferPointer<UInt8>, file: String, line: Int) throws(TraceError) {
        let names = base[header].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).trimmingBlanks()
        }
        var seen: Set<String> = []
        for name in names where !name.isEmpty {
            guard seen.insert(name).inserted else {
                throw .malformedLine(file: file, line: line, reason: "the header names column \"\(name)\" twice")
            }
        }
        for required in TraceReader.cachelabRequiredColumns where !seen.contains(required) {
            throw .malformedLine(
                file: file, line: line,
                reason: "the header names no \"\(required)\" column (it needs time,key,size and may add event)")
        }
        fieldCount = names.count
        time = names.firstIndex(of: "time")!
        key = names.firstIndex(of: "key")!
        size = names.firstIndex(of: "size")!
        event = names.firstIndex(of: "event")
    }
}

/// The byte ranges of the fields of one cachelab line.
private struct CachelabFields {
    var time: Range<Int> = 0..<0
    var key: Range<Int> = 0..<0
    var size: Range<Int> = 0..<0
    var event: Range<Int>?

    /// Records the fields `layout` names and returns how many fields the line has.
    @inline(__always)
    mutating func split(_ line: Range<Int>, in base: UnsafeBufferPointer<UInt8>, layout: CachelabLayout) -> Int {
        event = nil
        var column = 0
        var start = line.lowerBound
        var index = line.lowerBound
        while true {
            if index == line.upperBound || base[index] == UInt8(ascii: ",") {
                let field = start..<index
                if column == layout.time {
                    time = field
                } else if column == layout.key {
                    key = field
                } else if column == layout.size {
                    size = field
                } else if column == layout.event {
                    event = field
                }
                if index == line.upperBound {
                    return column + 1
                }
                column += 1
                start = index + 1
            }
            index += 1
        }
    }
}

/// Gives each distinct key, a byte range of the file, the next id from 0, without making a
/// `String` for keys seen before.
///
/// - Complexity: O(length of the key) expected per lookup (open addressing, linear probing,
///   at most half full).
private struct KeyInterner {
    /// The string of each id.
    private(set) var names: [String] = []
    /// Where each id's bytes first appeared, and their hash.
    private var ranges: [Range<Int>] = []
    private var hashes: [UInt64] = []
    /// `slots[i]` holds an id, or -1 when empty.
    private var slots = [Int](repeating: -1, count: 1024)

    mutating func intern(
        _ key: Range<Int>, in base: UnsafeBufferPointer<UInt8>, file: String, line: Int
    ) throws(TraceError) -> UInt64 {
        let hash = Self.hash(key, in: base)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let id = slots[slot]
            if hashes[id] == hash && ranges[id].count == key.count
                && memcmp(base.baseAddress! + ranges[id].lowerBound, base.baseAddress! + key.lowerBound, key.count)
                    == 0
            {
                return UInt64(id)
            }
            slot = (slot + 1) & mask
        }
        guard let name = String(validating: UnsafeBufferPointer(rebasing: base[key]), as: UTF8.self) else {
            throw .malformedLine(
                file: file, line: line, reason: "key \(TraceReader.quoted(key, in: base)) is not UTF-8")
        }
        let id = names.count
        names.append(name)
        ranges.append(key)
        hashes.append(hash)
        slots[slot] = id
        if names.count * 2 > slots.count {
            grow()
        }
        return UInt64(id)
    }

    private mutating func grow() {
        slots = [Int](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for id in names.indices {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while slots[slot] >= 0 {
                slot = (slot + 1) & mask
            }
            slots[slot] = id
        }
    }

    /// FNV-1a, 64-bit.
    private static func hash(_ key: Range<Int>, in base: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in key {
            hash = (hash ^ UInt64(base[index])) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingBlanks() -> String {
        var result = Substring(self)
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return String(result)
    }
}
