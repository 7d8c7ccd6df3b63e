import ClientModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads cachelab's own CSV, defined in `traces/README.md`: `#` comment lines, then a header
/// naming at least `time`, `key` and `size` (and perhaps `event`), then one request or event per
/// line.
///
/// Keys are interned in order of first appearance to ids 0, 1, 2, …, each distinct key's bytes
/// kept once (`keyNames` gives their strings). Columns the header names but cachelab does not
/// know are skipped.
final class CachelabStream: RequestStream {
    /// The columns cachelab's format requires, in the order its writer puts them.
    static let requiredColumns = ["time", "key", "size"]

    private let lines: LineReader
    private let layout: CachelabLayout
    private let requiresRequests: Bool
    private var interner = KeyInterner()
    private var fields = CachelabFields()
    private var previousTime: Int64 = 0
    private var done = false
    private var produced = 0

    var name: String { lines.file }
    var keyNames: [String]? { interner.names }
    func keyName(for id: UInt64) -> String? { interner.name(of: Int(id)) }
    var mayHaveEvents: Bool { layout.event != nil }
    var mayHavePixelSizes: Bool { layout.width != nil }
    var progress: (done: Int, total: Int?) { (lines.consumed, lines.total) }

    /// Reads up to the header.
    ///
    /// - Parameter requiresRequests: whether a file without a request is an error (`empty`); a
    ///   recording's part may hold only events (a launch that showed no image).
    init(_ lines: LineReader, requiresRequests: Bool) throws(TraceError) {
        self.lines = lines
        self.requiresRequests = requiresRequests
        var header: Range<Int>?
        while let line = try lines.next() {
            let base = lines.base
            if !TraceReader.trimmed(line, in: base).isEmpty && base[line.lowerBound] != UInt8(ascii: "#") {
                header = line
                break
            }
        }
        guard let header else {
            throw .empty(file: lines.file)
        }
        layout = try CachelabLayout(header: header, in: lines.base, file: lines.file, line: lines.number)
    }

    func next(into chunk: inout RequestChunk) throws(TraceError) -> Bool {
        try chunk.fill(from: produced) { writer throws(TraceError) in
            while !writer.isFull && !done {
                guard let line = try lines.next(requestsSoFar: produced + writer.count) else {
                    done = true
                    break
                }
                try parse(line, in: lines.base, into: &writer)
            }
        }
        produced += chunk.count
        if done && produced == 0 && requiresRequests {
            throw .empty(file: lines.file)
        }
        return chunk.count > 0 || !chunk.events.isEmpty
    }

    /// Parses one line after the header: a request, an event, or a blank line that ends the file.
    @inline(__always)
    private func parse(
        _ line: Range<Int>, in base: UnsafeBufferPointer<UInt8>, into writer: inout ChunkWriter
    ) throws(TraceError) {
        let file = lines.file
        let number = lines.number
        if TraceReader.trimmed(line, in: base).isEmpty {
            guard try lines.restIsBlank() else {
                throw .malformedLine(file: file, line: number, reason: "the line is empty")
            }
            done = true
            return
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

        let timeField = TraceReader.trimmed(fields.time, in: base)
        guard let time = TraceReader.milliseconds(timeField, in: base) else {
            throw .malformedLine(
                file: file, line: number,
                reason:
                    "time \(TraceReader.quoted(timeField, in: base)) \(TraceReader.timeProblem(timeField, in: base))"
            )
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
            let kind = try Self.eventKind(eventField, in: base, file: file, line: number)
        {
            guard TraceReader.trimmed(fields.size, in: base).isEmpty,
                fields.width.map({ TraceReader.trimmed($0, in: base).isEmpty }) ?? true,
                fields.height.map({ TraceReader.trimmed($0, in: base).isEmpty }) ?? true
            else {
                throw .malformedLine(
                    file: file, line: number, reason: "a \(kind.rawValue) event takes no size; leave it empty")
            }
            guard kind.takesKey else {
                guard fields.key.isEmpty else {
                    throw .malformedLine(
                        file: file, line: number, reason: "a \(kind.rawValue) event takes no key; leave it empty")
                }
                writer.appendEvent(kind, time: time)
                return
            }
            let article = kind == .unfavourite ? "an" : "a"
            try checkKey(fields.key, in: base, file: file, line: number, what: "\(article) \(kind.rawValue) event")
            writer.appendEvent(
                kind, time: time, key: try interner.intern(fields.key, in: base, file: file, line: number))
            return
        }

        let key = fields.key
        try checkKey(key, in: base, file: file, line: number, what: "a request")
        let sizeField = TraceReader.trimmed(fields.size, in: base)
        guard let size = TraceReader.unsignedInteger(sizeField, in: base), size > 0 else {
            throw .malformedLine(
                file: file, line: number,
                reason: "size \(TraceReader.quoted(sizeField, in: base)) is not a positive integer of bytes")
        }
        guard size <= Trace.largestSize else {
            throw .malformedLine(file: file, line: number, reason: TraceReader.tooLarge(sizeField, in: base))
        }
        let id = try interner.intern(key, in: base, file: file, line: number)
        if let width = fields.width, let height = fields.height {
            let pixels = try Self.pixelSize(width, height, in: base, file: file, line: number)
            writer.append(time: time, key: id, size: Int(size), pixels: pixels)
        } else {
            writer.append(time: time, key: id, size: Int(size))
        }
    }

    /// A request's `width` and `height`, packed: both empty (unknown, 0) or both whole numbers
    /// of pixels in `1...PixelSize.largestSide`.
    private static func pixelSize(
        _ widthField: Range<Int>, _ heightField: Range<Int>, in base: UnsafeBufferPointer<UInt8>, file: String,
        line: Int
    ) throws(TraceError) -> UInt32 {
        let width = TraceReader.trimmed(widthField, in: base)
        let height = TraceReader.trimmed(heightField, in: base)
        if width.isEmpty && height.isEmpty { return 0 }
        guard let w = TraceReader.unsignedInteger(width, in: base),
            let h = TraceReader.unsignedInteger(height, in: base),
            (1...UInt64(PixelSize.largestSide)).contains(w), (1...UInt64(PixelSize.largestSide)).contains(h)
        else {
            throw .malformedLine(
                file: file, line: line,
                reason:
                    "width \(TraceReader.quoted(width, in: base)) and height \(TraceReader.quoted(height, in: base)) "
                    + "are not both empty or both whole numbers of pixels from 1 to \(PixelSize.largestSide)")
        }
        return UInt32(w) << 16 | UInt32(h)
    }

    /// Checks that `key` is one the writer could write back: not empty, no double quote, no
    /// carriage return (a line ends at \n or \r\n).
    @inline(__always)
    private func checkKey(
        _ key: Range<Int>, in base: UnsafeBufferPointer<UInt8>, file: String, line number: Int, what: String
    ) throws(TraceError) {
        guard !key.isEmpty else {
            throw .malformedLine(
                file: file, line: number,
                reason: what == "a request" ? "the key is empty" : "\(what) needs the photo's key")
        }
        guard memchr(base.baseAddress! + key.lowerBound, Int32(UInt8(ascii: "\"")), key.count) == nil else {
            throw .malformedLine(
                file: file, line: number, reason: "key \(TraceReader.quoted(key, in: base)) holds a double quote")
        }
        guard memchr(base.baseAddress! + key.lowerBound, Int32(UInt8(ascii: "\r")), key.count) == nil else {
            throw .malformedLine(
                file: file, line: number, reason: "key \(TraceReader.quoted(key, in: base)) holds a carriage return")
        }
        guard memchr(base.baseAddress! + key.lowerBound, 0, key.count) == nil else {
            throw .malformedLine(file: file, line: number, reason: "the key holds a NUL byte")
        }
    }

    /// The event a line's `event` field names, or `nil` for a request (empty or `get`).
    private static func eventKind(
        _ range: Range<Int>, in base: UnsafeBufferPointer<UInt8>, file: String, line: Int
    ) throws(TraceError) -> TraceEvent.Kind? {
        let field = TraceReader.trimmed(range, in: base)
        if field.isEmpty || base[field].elementsEqual("get".utf8) {
            return nil
        }
        for kind in TraceEvent.Kind.allCases where base[field].elementsEqual(kind.rawValue.utf8) {
            return kind
        }
        throw .malformedLine(
            file: file, line: line,
            reason: "event \(TraceReader.quoted(field, in: base)) is not one of get, "
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
    var width: Int?
    var height: Int?

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
        for required in CachelabStream.requiredColumns where !seen.contains(required) {
            throw .malformedLine(
                file: file, line: line,
                reason: "the header names no \"\(required)\" column (it needs time,key,size and may add event)")
        }
        fieldCount = names.count
        time = names.firstIndex(of: "time")!
        key = names.firstIndex(of: "key")!
        size = names.firstIndex(of: "size")!
        event = names.firstIndex(of: "event")
        width = names.firstIndex(of: "width")
        height = names.firstIndex(of: "height")
        guard (width == nil) == (height == nil) else {
            throw .malformedLine(
                file: file, line: line,
                reason:
                    "the header names \(width == nil ? "height" : "width") without \(width == nil ? "width" : "height")"
            )
        }
    }
}

/// The byte ranges of the fields of one cachelab line.
private struct CachelabFields {
    var time: Range<Int> = 0..<0
    var key: Range<Int> = 0..<0
    var size: Range<Int> = 0..<0
    var event: Range<Int>?
    var width: Range<Int>?
    var height: Range<Int>?

    /// Records the fields `layout` names and returns how many fields the line has.
    @inline(__always)
    mutating func split(_ line: Range<Int>, in base: UnsafeBufferPointer<UInt8>, layout: CachelabLayout) -> Int {
        event = nil
        width = nil
        height = nil
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
                } else if column == layout.width {
                    width = field
                } else if column == layout.height {
                    height = field
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

/// Gives each distinct key the next id from 0, without making a `String` for keys seen before:
/// each distinct key's bytes are kept once, in one arena, and compared byte for byte.
///
/// - Complexity: O(length of the key) expected per lookup (open addressing, linear probing,
///   at most half full).
private struct KeyInterner {
    /// Every distinct key's bytes, one after another; key `id` is `arena[offsets[id]..<offsets[id + 1]]`.
    private var arena: [UInt8] = []
    private var offsets: [Int] = [0]
    private var hashes: [UInt64] = []
    /// `slots[i]` holds an id, or -1 when empty.
    private var slots = [Int](repeating: -1, count: 1024)

    /// The number of distinct keys.
    var count: Int { hashes.count }

    /// The string of one id.
    func name(of id: Int) -> String {
        arena.withUnsafeBufferPointer { arena in
            String(decoding: UnsafeBufferPointer(rebasing: arena[offsets[id]..<offsets[id + 1]]), as: UTF8.self)
        }
    }

    /// The string of each id.
    var names: [String] {
        arena.withUnsafeBufferPointer { arena in
            (0..<count).map { id in
                String(decoding: UnsafeBufferPointer(rebasing: arena[offsets[id]..<offsets[id + 1]]), as: UTF8.self)
            }
        }
    }

    mutating func intern(
        _ key: Range<Int>, in base: UnsafeBufferPointer<UInt8>, file: String, line: Int
    ) throws(TraceError) -> UInt64 {
        let hash = Self.hash(key, in: base)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let id = slots[slot]
            if hashes[id] == hash && offsets[id + 1] - offsets[id] == key.count
                && arena.withUnsafeBufferPointer({
                    memcmp($0.baseAddress! + offsets[id], base.baseAddress! + key.lowerBound, key.count) == 0
                })
            {
                return UInt64(id)
            }
            slot = (slot + 1) & mask
        }
        guard String(validating: UnsafeBufferPointer(rebasing: base[key]), as: UTF8.self) != nil else {
            throw .malformedLine(
                file: file, line: line, reason: "key \(TraceReader.quoted(key, in: base)) is not UTF-8")
        }
        let id = count
        arena.append(contentsOf: UnsafeBufferPointer(rebasing: base[key]))
        offsets.append(arena.count)
        hashes.append(hash)
        slots[slot] = id
        if count * 2 > slots.count {
            grow()
        }
        return UInt64(id)
    }

    private mutating func grow() {
        slots = [Int](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for id in 0..<count {
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
