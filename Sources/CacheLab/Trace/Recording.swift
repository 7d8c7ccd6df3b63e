#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A recording made by an app's `TraceRecorder` (the `CacheLabRecorder` library), read back as
/// one trace: its part files in order, merged.
///
/// Each part is cachelab's own format with one more column, `source` (`memory`, `disk` or
/// `network`: the tier that answered the lookup in the app). A part that a crash cut short ends
/// in a partial line; it is dropped and counted, and everything before it is read. Anything else
/// malformed is an error naming the part and the line. Keys are merged by name across parts; a
/// part whose first time is earlier than the last one before it (the device's clock was set back)
/// has those times raised to it, counted in `raisedTimes`.
public struct Recording: Sendable, Equatable {
    /// The requests and events of every part, in order.
    public var trace: Trace
    /// The part files read, in order.
    public var parts: [String]
    /// Partial last lines dropped (one at most per part, from a write a crash cut short).
    public var droppedPartialLines: Int
    /// Times raised to the one before them across parts.
    public var raisedTimes: Int
    /// Lookups by the tier that answered them in the app (`memory`, `disk`, `network`); empty
    /// when the parts have no `source` column (a trace not made by a recorder).
    public var sources: [String: Int]

    /// Whether `path` is a folder (a recording's, when it holds parts).
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Reads a part file, or every `part-*.csv` file of a folder (a recording's), in name order.
    public static func read(path: String) throws(TraceError) -> Recording {
        // A path that is no folder is one part; reading it says whether it exists.
        let parts = isFolder(path) ? try csvFiles(in: path) : [path]
        guard !parts.isEmpty else {
            throw .unreadable(file: path, reason: "the folder holds no part-*.csv file of a recording")
        }
        var recording = Recording(
            trace: Trace(name: String(path.split(separator: "/").last ?? Substring(path))), parts: parts,
            droppedPartialLines: 0, raisedTimes: 0, sources: [:])
        var ids: [String: UInt64] = [:]
        var names: [String] = []
        for part in parts {
            var bytes = try TraceReader.contents(ofFile: part)
            if let last = bytes.last, last != UInt8(ascii: "\n") {
                bytes.removeSubrange((bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)...)
                recording.droppedPartialLines += 1
            }
            let read: Trace
            do {
                // A part may hold events alone: a launch that showed no image still relaunched.
                read = try TraceReader.readCachelab(bytes, file: part, requiresRequests: false)
            } catch .empty {
                continue  // a part cut short before its header
            }
            try recording.count(sources: bytes, file: part)
            recording.append(read, ids: &ids, names: &names)
        }
        guard recording.trace.count > 0 else { throw .empty(file: path) }
        recording.trace.nameKeys(names)
        return recording
    }

    /// Appends `part`'s requests and events, its keys mapped to the merged ids.
    private mutating func append(_ part: Trace, ids: inout [String: UInt64], names: inout [String]) {
        let partNames = part.keyNames ?? []
        var mapped = [UInt64](repeating: 0, count: partNames.count)
        for (index, name) in partNames.enumerated() {
            if let id = ids[name] {
                mapped[index] = id
            } else {
                let id = UInt64(names.count)
                ids[name] = id
                names.append(name)
                mapped[index] = id
            }
        }
        let floor =
            trace.times.last.map { last in max(last, trace.events.last?.time ?? 0) } ?? trace.events.last?.time ?? 0
        func raised(_ time: Int64) -> Int64 {
            guard time < floor else { return time }
            raisedTimes += 1
            return floor
        }
        let offset = trace.count
        for event in part.events {
            trace.appendEvent(
                TraceEvent(
                    position: event.position + offset, time: raised(event.time), kind: event.kind,
                    key: event.key.map { mapped[Int($0)] }))
        }
        trace.reserveCapacity(trace.count + part.count)
        for index in 0..<part.count {
            trace.append(
                time: raised(part.times[index]), key: mapped[Int(part.keys[index])], size: part.sizes[index],
                pixels: part.pixelSizes?[index] ?? 0)
        }
    }

    /// The tiers a recorder names in the `source` column.
    public static let sourceNames: Set<String> = ["memory", "disk", "network"]

    /// Counts the `source` column of a part's request lines. A value other than `memory`, `disk`
    /// or `network` is refused with its line (counted from 1); an empty one (an event's) is skipped.
    private mutating func count(sources bytes: [UInt8], file: String) throws(TraceError) {
        var column: Int?
        var sawHeader = false
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, var line) in lines.enumerated() {
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            if !sawHeader {
                sawHeader = true
                column = fields.firstIndex { $0.elementsEqual("source".utf8) }
                if column == nil { return }
                continue
            }
            guard let column, column < fields.count, !fields[column].isEmpty else { continue }
            let source = String(decoding: fields[column], as: UTF8.self)
            guard Self.sourceNames.contains(source) else {
                throw .malformedLine(
                    file: file, line: index + 1, reason: "source '\(source)' is none of memory, disk, network")
            }
            sources[source, default: 0] += 1
        }
    }

    /// The `part-*.csv` files of the folder at `path`, in name order: a merged trace written
    /// beside them is not taken for a part.
    private static func csvFiles(in path: String) throws(TraceError) -> [String] {
        guard let folder = opendir(path) else {
            throw .unreadable(file: path, reason: TraceReader.systemError())
        }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("part-") && name.hasSuffix(".csv") { names.append(name) }
        }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return names.sorted().map { prefix + $0 }
    }
}
