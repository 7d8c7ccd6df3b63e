#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a sweep's cell files say of the trace they ran on: its name and a fingerprint of its
/// contents, so that the same trace read from another path (another node's mount of the shared
/// storage) is the same trace, and a different one is not.
///
/// A file's fingerprint is its size and a hash of 16 blocks of 64 KiB spread over it (its first and
/// last included) and of how it is read (format, columns, next uses): computed in milliseconds for
/// a file of any size, it tells apart two different traces of the same name, a trace cut short or
/// appended to, and a trace rewritten, unless the rewrite keeps the size and touches only bytes
/// between the blocks. A trace in memory (a generated scenario, a recording) is hashed whole; a
/// generator's parameters are its identity.
public struct TraceIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name results carry (`TraceSource.name`).
    public var name: String
    /// How the requests were made or read, and the content's hash.
    public var fingerprint: String

    public init(name: String, fingerprint: String) {
        self.name = name
        self.fingerprint = fingerprint
    }

    public var description: String { "\(name) (\(fingerprint))" }

    /// Blocks hashed of a file, and their size.
    static let blocks = 16
    static let blockSize = 1 << 16

    /// The identity of the trace `source` gives.
    ///
    /// - Throws: `TraceError.unreadable` when a file cannot be opened or read.
    public init(_ source: TraceSource) throws(TraceError) {
        name = source.name
        let nextUses = source.computesNextUses ? " next-uses=computed" : ""
        switch source.origin {
        case .file(let path, let format, let columns):
            let format = format ?? TraceFormat.inferred(fromPath: path)
            let reading = "format=\(format?.rawValue ?? "inferred") columns=\(columns?.description ?? "-")\(nextUses)"
            let (size, hash) = try Self.sample(path: path, seed: StableHash.fnv1a(reading))
            fingerprint = "file \(reading) bytes=\(size) sampled=\(StableHash.hex(hash))"
        case .memory(let trace):
            fingerprint =
                "memory requests=\(trace.count) events=\(trace.events.count)\(nextUses) hash=\(StableHash.hex(Self.hash(trace)))"
        case .zipf(let parameters):
            fingerprint = "zipf requests=\(parameters.requests) sizes=\(parameters.sizes)"
        }
    }

    /// The file's size and the hash of its sampled blocks.
    private static func sample(path: String, seed: UInt64) throws(TraceError) -> (Int, UInt64) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(file: path, reason: TraceReader.systemError()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(file: path, reason: TraceReader.systemError()) }
        try TraceSource.requireRegularFile(info, path: path)
        let size = Int(info.st_size)
        var hash = StableHash.fnv1a(String(size).utf8, seed: seed)
        var buffer = [UInt8](repeating: 0, count: blockSize)
        let last = max(0, size - blockSize)
        for block in 0..<blocks {
            let offset = blocks == 1 ? 0 : last * block / (blocks - 1)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, blockSize, off_t(offset)) }
            guard count >= 0 else { throw .unreadable(file: path, reason: TraceReader.systemError()) }
            hash = StableHash.fnv1a(buffer[..<count], seed: hash)
        }
        return (size, hash)
    }

    /// A hash of every request and event of a trace held in memory.
    private static func hash(_ trace: Trace) -> UInt64 {
        func add<T>(_ values: [T], to hash: UInt64) -> UInt64 {
            values.withUnsafeBytes { StableHash.fnv1a($0, seed: hash) }
        }
        var hash = add(trace.keys, to: 0)
        hash = add(trace.sizes, to: hash)
        hash = add(trace.times, to: hash)
        hash = add(trace.pixelSizes ?? [], to: hash)
        for event in trace.events {
            hash = StableHash.fnv1a("\(event.position) \(event.time) \(event.kind) \(event.key ?? 0)", seed: hash)
        }
        for name in trace.keyNames ?? [] { hash = StableHash.fnv1a(name, seed: hash) }
        return hash
    }
}
