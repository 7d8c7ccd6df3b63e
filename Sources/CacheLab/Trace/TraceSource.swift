import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a plan's requests come from: a trace file (read as a stream, as often as needed), a
/// trace already in memory, or a generator. A description, cheap to copy and `Sendable`; `open`
/// starts a fresh stream from the first request each time.
public struct TraceSource: Sendable {
    public enum Origin: Sendable {
        /// A trace file in any format `TraceReader` reads, plain or `.zst`.
        case file(path: String, format: TraceFormat?, columns: CSVColumns?)
        /// A trace held in memory: replayed in place, without copying.
        case memory(Trace)
        /// A generator that streams its requests (`ZipfStream`).
        case zipf(ZipfParameters)
    }

    public var origin: Origin
    /// Take each request's next use from a pass over the trace even where the file carries it
    /// (an oracleGeneral file whose `next_access_vtime` is missing or wrong).
    public var computesNextUses = false
    // Streams `open` made, shared by the copies of this source.
    private let opened = OpenCount()

    public init(_ origin: Origin) {
        self.origin = origin
    }

    /// A trace held in memory.
    public init(_ trace: Trace) {
        origin = .memory(trace)
    }

    /// A trace file, read as a stream.
    public static func file(_ path: String, format: TraceFormat? = nil, columns: CSVColumns? = nil) -> TraceSource {
        TraceSource(.file(path: path, format: format, columns: columns))
    }

    /// The name results carry: the file's last path component, the trace's, the generator's.
    public var name: String {
        switch origin {
        case .file(let path, _, _): String(path.split(separator: "/").last ?? Substring(path))
        case .memory(let trace): trace.name
        case .zipf(let parameters): parameters.name
        }
    }

    /// Refuses a file that cannot be read again from its first request (a pipe, a device): a run
    /// reads its trace for the working set and again to replay it, and a sweep names its cells by
    /// the file's contents. A trace in memory and a generator can always be read again.
    ///
    /// - Throws: `TraceError.unreadable` naming the file.
    public func checkRereadable() throws(TraceError) {
        guard case .file(let path, _, _) = origin else { return }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unreadable(file: path, reason: TraceReader.systemError()) }
        try Self.requireRegularFile(info, path: path)
    }

    /// Refuses the file at `path`, whose status is `info`, unless it is a regular file.
    static func requireRegularFile(_ info: stat, path: String) throws(TraceError) {
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(file: path, reason: notRereadable) }
    }

    /// Why a pipe or a device is refused as a trace.
    static let notRereadable =
        "not a regular file (a pipe or a device): cachelab reads a trace more than once and names results by its contents; write it to a file first"

    /// The trace, when it is held in memory.
    public var trace: Trace? {
        if case .memory(let trace) = origin { trace } else { nil }
    }

    /// How many times the trace has been read: the streams `open` made, by this source and its
    /// copies (a run with its capacities given reads a file once; a share of the working set
    /// adds a pass that measures it).
    public var passes: Int { opened.count.load(ordering: .relaxed) }

    /// A stream of the requests from the first one.
    public func open() throws(TraceError) -> any RequestStream {
        opened.count.add(1, ordering: .relaxed)
        return switch origin {
        case .file(let path, let format, let columns):
            try TraceReader.open(path: path, format: format, columns: columns, readsNextUses: !computesNextUses)
        case .memory(let trace): TraceArrayStream(trace)
        case .zipf(let parameters): ZipfStream(parameters)
        }
    }

    /// Whether the streams `open` makes carry each request's next use.
    var carriesNextUses: Bool {
        switch origin {
        case .file(let path, let format, _):
            !computesNextUses && (format ?? TraceFormat.inferred(fromPath: path)) == .oracleGeneral
        case .memory, .zipf: false
        }
    }
}

/// A count shared by the copies of a `TraceSource`.
private final class OpenCount: Sendable {
    let count = Atomic<Int>(0)
}
