import CacheLabLocking
import Foundation

/// Records what an app's image cache sees — every lookup with its key, size and the tier that
/// answered it, and the app's lifecycle events — as a cachelab trace, for replay against every
/// policy and size (`cachelab trace import`, then `cachelab run` or `compare`).
///
/// ```swift
/// let recorder = try TraceRecorder(directory: caches.appending(path: "image-trace"))
/// recorder.recordLaunch(at: now)                 // a relaunch, if the recording goes on
/// recorder.recordLookup(url, size: data.count, source: .memory, at: now)
/// recorder.recordEvent(.background, at: now)
/// ```
///
/// - **Privacy.** Keys are written as a SipHash-2-4 of the URL under a random 128-bit salt kept
///   in the recording's folder (`salt`): the same URL gets the same key for the whole recording,
///   across launches, and the trace reveals no URL. Share the `part-*.csv` files, not the salt.
///   Sizes and times are kept as given.
/// - **Off the caller's path.** A record is formatted into an in-memory buffer under a lock: no
///   allocation, no system call. A full buffer is handed to a writer task, which appends it to
///   the current part file; parts rotate at `Options.partSize`, and each launch starts a new one.
///   Records from several threads go to the file in the order they took the lock.
/// - **Crashes.** Records reach the file a whole buffer at a time, at line boundaries, by
///   appending. A crash loses at most the records still buffered (and any buffer the writer had
///   not written yet); what is on disk stays as it was, but for a last line that a killed write
///   may have cut short, which the importer drops.
/// - **Time** is an input: milliseconds on the app's own clock (the one its image pipeline uses).
///   A time earlier than the last one recorded is written as the last one, so the trace never
///   goes back.
///
/// Depends on Foundation alone (and `CacheLabLocking`, a pthread mutex), so an iOS app can add it
/// as a package dependency.
public final class TraceRecorder: Sendable {
    /// The tier that answered a lookup; `network` is a miss.
    public enum Source: String, Sendable, CaseIterable {
        case memory, disk, network
    }

    /// An app event, as cachelab's trace format names it.
    public enum Event: String, Sendable, CaseIterable {
        /// The app was launched again: its memory cache starts empty, its disk cache does not.
        case relaunch
        case background
        case foreground
        case memoryWarning = "memory_warning"
        /// A favourite's photo was pinned: recorded with its key (`recordEvent(_:key:at:)`).
        case favourite
        /// A favourite's photo was let go: recorded with its key.
        case unfavourite
    }

    public struct Options: Sendable {
        /// Write keys as salted hashes (the default) or as given (for a recording that never
        /// leaves the developer's machine; a comma, quote or line break is percent-encoded).
        public var hashesKeys: Bool
        /// Bytes of records kept in memory before they go to the writer: what a crash can lose.
        public var bufferSize: Int
        /// Bytes after which a part file is closed and the next begun.
        public var partSize: Int

        public init(hashesKeys: Bool = true, bufferSize: Int = 32 * 1024, partSize: Int = 8 * 1024 * 1024) {
            precondition(bufferSize > 0 && partSize > 0, "TraceRecorder: sizes must be positive")
            self.hashesKeys = hashesKeys
            self.bufferSize = bufferSize
            self.partSize = partSize
        }
    }

    /// The recording's folder.
    public let directory: URL
    /// Whether the folder already held parts: this launch goes on with an earlier recording.
    public let continuesRecording: Bool
    private let options: Options
    private let hasher: SipHash24?
    private let state: Locked<State>
    private let chunks: AsyncStream<[UInt8]>.Continuation
    private let writer: Task<Result<RecordingSummary, RecorderError>, Never>

    private struct State {
        var buffer: [UInt8] = []
        var lastTime: Int64 = 0
        var records = 0
        var clampedTimes = 0
        var closed = false
    }

    /// Opens (or creates) the recording in `directory` and starts a new part file in it.
    public init(directory: URL, options: Options = Options()) throws(RecorderError) {
        self.directory = directory
        self.options = options
        let files = FileManager.default
        do {
            try files.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .folder(directory.path, reason: "\(error.localizedDescription)")
        }
        let parts = Self.partNumbers(in: directory)
        continuesRecording = !parts.isEmpty
        hasher = options.hashesKeys ? try Self.salt(in: directory) : nil
        var state = State()
        state.buffer.reserveCapacity(options.bufferSize + 1_024)
        self.state = Locked(state)
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        chunks = continuation
        let writing = PartWriter(directory: directory, firstPart: (parts.max() ?? 0) + 1, partSize: options.partSize)
        writer = Task.detached(priority: .utility) { await writing.write(stream) }
    }

    deinit {
        // Whatever is buffered still reaches the file: the writer task outlives the recorder.
        state.withLock { state in
            if !state.closed && !state.buffer.isEmpty { chunks.yield(state.buffer) }
            state.closed = true
        }
        chunks.finish()
    }

    /// Records a lookup of `key` (its URL) that `source` answered with `size` bytes, at `time`
    /// (ms on the app's clock). A lookup that failed has no size: leave it out (one with a size
    /// under 1 is not recorded; one over 4 GiB is recorded as 4 GiB − 1, the most a trace holds).
    /// `width` and `height`, when the app knows the image's pixels, let a replay cost it in memory
    /// as a decoded bitmap (each side at most 65,535; others are left out).
    public func recordLookup(
        _ key: String, size: Int, source: Source, at time: Int64, width: Int? = nil, height: Int? = nil
    ) {
        guard size > 0 else { return }
        let hash = hashed(key)
        state.withLock { state in
            guard !state.closed else { return }
            Self.appendTime(time, to: &state)
            if let hash {
                Self.appendHex(hash, to: &state.buffer)
            } else {
                Self.appendKey(key, to: &state.buffer)
            }
            state.buffer.append(UInt8(ascii: ","))
            Self.appendDecimal(UInt64(min(size, Int(UInt32.max))), to: &state.buffer)
            state.buffer.append(UInt8(ascii: ","))
            state.buffer.append(UInt8(ascii: ","))
            state.buffer.append(contentsOf: source.rawValue.utf8)
            state.buffer.append(UInt8(ascii: ","))
            if let width, let height, (1...65_535).contains(width), (1...65_535).contains(height) {
                Self.appendDecimal(UInt64(width), to: &state.buffer)
                state.buffer.append(UInt8(ascii: ","))
                Self.appendDecimal(UInt64(height), to: &state.buffer)
            } else {
                state.buffer.append(UInt8(ascii: ","))
            }
            state.buffer.append(UInt8(ascii: "\n"))
            handOverIfFull(&state)
        }
    }

    /// Records an app event at `time` (ms on the app's clock); `favourite` and `unfavourite` name
    /// the photo (`key`, its URL, hashed as lookups' are), the others none.
    public func recordEvent(_ event: Event, key: String? = nil, at time: Int64) {
        precondition(
            (key != nil) == (event == .favourite || event == .unfavourite),
            "TraceRecorder: a \(event.rawValue) event \(key == nil ? "needs" : "takes no") key")
        let hash = key.flatMap(hashed)
        state.withLock { state in
            guard !state.closed else { return }
            Self.appendTime(time, to: &state)
            if let hash {
                Self.appendHex(hash, to: &state.buffer)
            } else if let key {
                Self.appendKey(key, to: &state.buffer)
            }
            state.buffer.append(contentsOf: ",,".utf8)
            state.buffer.append(contentsOf: event.rawValue.utf8)
            state.buffer.append(contentsOf: ",,,\n".utf8)
            handOverIfFull(&state)
        }
    }

    /// `key`'s salted hash, or nil when keys are written as given.
    private func hashed(_ key: String) -> UInt64? {
        guard let hasher else { return nil }
        var key = key
        return key.withUTF8 { hasher.hash(UnsafeRawBufferPointer($0)) }
    }

    /// Records a `relaunch` when this launch goes on with an earlier recording; call it once,
    /// at launch.
    public func recordLaunch(at time: Int64) {
        if continuesRecording { recordEvent(.relaunch, at: time) }
    }

    /// Hands what is buffered to the writer now (say, when the app goes to the background).
    public func flush() {
        state.withLock { state in
            guard !state.buffer.isEmpty else { return }
            chunks.yield(state.buffer)
            state.buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Writes everything recorded and closes the recording; later records are ignored.
    ///
    /// - Returns: the parts written and how many records went into them.
    /// - Throws: `RecorderError.write` if a part could not be written.
    @discardableResult
    public func close() async throws(RecorderError) -> RecordingSummary {
        let (records, clamped) = state.withLock { state in
            if !state.closed && !state.buffer.isEmpty { chunks.yield(state.buffer) }
            state.closed = true
            state.buffer = []
            return (state.records, state.clampedTimes)
        }
        chunks.finish()
        var summary = try await writer.value.get()
        summary.records = records
        summary.clampedTimes = clamped
        return summary
    }

    // MARK: Under the lock: appends to a buffer with room reserved, no allocation.

    /// Counts the record just formatted and hands a full buffer to the writer, under the lock:
    /// buffers reach the writer in the order their records were made, so the file's times never
    /// go back, whichever threads record.
    private func handOverIfFull(_ state: inout State) {
        state.records += 1
        guard state.buffer.count >= options.bufferSize else { return }
        chunks.yield(state.buffer)
        state.buffer = []
        state.buffer.reserveCapacity(options.bufferSize + 1_024)
    }

    /// Appends `time` as seconds with the decimals it needs, never earlier than the last one.
    private static func appendTime(_ time: Int64, to state: inout State) {
        var time = time
        if time < state.lastTime {
            time = state.lastTime
            state.clampedTimes += 1
        }
        state.lastTime = time
        appendDecimal(UInt64(time / 1000), to: &state.buffer)
        var fraction = time % 1000
        if fraction != 0 {
            state.buffer.append(UInt8(ascii: "."))
            var digits = 3
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            var divisor: Int64 = digits == 3 ? 100 : digits == 2 ? 10 : 1
            while divisor > 0 {
                state.buffer.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
                divisor /= 10
            }
        }
        state.buffer.append(UInt8(ascii: ","))
    }

    private static func appendDecimal(_ value: UInt64, to buffer: inout [UInt8]) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    private static func appendHex(_ value: UInt64, to buffer: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        var shift: UInt64 = 60
        while true {
            buffer.append(digits.utf8Start[Int((value >> shift) & 0xf)])
            if shift == 0 { break }
            shift -= 4
        }
    }

    /// A key as given, with what the format cannot hold percent-encoded.
    private static func appendKey(_ key: String, to buffer: inout [UInt8]) {
        guard !key.isEmpty else {
            buffer.append(contentsOf: "%00".utf8)
            return
        }
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "%"):
                buffer.append(UInt8(ascii: "%"))
                appendHex2(byte, to: &buffer)
            default:
                buffer.append(byte)
            }
        }
    }

    private static func appendHex2(_ byte: UInt8, to buffer: inout [UInt8]) {
        let digits: StaticString = "0123456789ABCDEF"
        buffer.append(digits.utf8Start[Int(byte >> 4)])
        buffer.append(digits.utf8Start[Int(byte & 0xf)])
    }

    // MARK: The folder

    /// The numbers of the `part-N.csv` files in `directory`.
    static func partNumbers(in directory: URL) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap(partNumber(of:))
    }

    static func partNumber(of name: String) -> Int? {
        guard name.hasPrefix("part-"), name.hasSuffix(".csv") else { return nil }
        return Int(name.dropFirst(5).dropLast(4))
    }

    static func partName(_ number: Int) -> String {
        let digits = String(number)
        return "part-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".csv"
    }

    /// The recording's hash key: read from `salt`, or drawn at random and saved there.
    private static func salt(in directory: URL) throws(RecorderError) -> SipHash24 {
        let file = directory.appendingPathComponent("salt")
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            let hex = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard hex.count == 32, let k0 = UInt64(hex.prefix(16), radix: 16),
                let k1 = UInt64(hex.suffix(16), radix: 16)
            else {
                throw .folder(directory.path, reason: "its salt file does not hold 32 hexadecimal digits")
            }
            return SipHash24(k0: k0, k1: k1)
        }
        var random = SystemRandomNumberGenerator()
        let hasher = SipHash24(k0: random.next(), k1: random.next())
        var hex: [UInt8] = []
        appendHex(hasher.k0, to: &hex)
        appendHex(hasher.k1, to: &hex)
        do {
            try Data(hex + [UInt8(ascii: "\n")]).write(to: file, options: .atomic)
        } catch {
            throw .folder(directory.path, reason: "cannot write its salt file: \(error.localizedDescription)")
        }
        return hasher
    }
}

/// Why a recording could not be opened or written.
public enum RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    case folder(String, reason: String)
    case write(String, reason: String)

    public var description: String {
        switch self {
        case .folder(let path, let reason): "\(path): cannot record there: \(reason)"
        case .write(let path, let reason): "\(path): cannot write the recording: \(reason)"
        }
    }
}

/// Appends buffers to part files, on its own task: what a recorder hands over, in order.
private struct PartWriter: Sendable {
    let directory: URL
    let firstPart: Int
    let partSize: Int

    static let header = Array("time,key,size,event,source,width,height\n".utf8)

    func write(_ chunks: AsyncStream<[UInt8]>) async -> Result<RecordingSummary, RecorderError> {
        var summary = RecordingSummary()
        var handle: FileHandle?
        var written = 0
        var opened = 0
        var number = firstPart - 1
        var failure: RecorderError?
        for await chunk in chunks where failure == nil {
            do {
                // A new part at the first chunk, and when this one would pass the size limit (but
                // never an empty one: a chunk larger than the limit gets a part of its own).
                if handle == nil || (written + chunk.count > partSize && written > opened) {
                    try handle?.close()
                    number += 1
                    let url = directory.appendingPathComponent(TraceRecorder.partName(number))
                    let opening = Array("# cachelab recording, part \(number)\n".utf8) + Self.header
                    guard FileManager.default.createFile(atPath: url.path, contents: Data(opening)) else {
                        throw RecorderError.write(url.path, reason: "cannot create the file")
                    }
                    handle = try FileHandle(forWritingTo: url)
                    try handle?.seekToEnd()
                    summary.parts.append(url)
                    summary.bytes += opening.count
                    written = opening.count
                    opened = opening.count
                }
                try handle?.write(contentsOf: Data(chunk))
                written += chunk.count
                summary.bytes += chunk.count
            } catch let error as RecorderError {
                failure = error
            } catch {
                failure = .write(summary.parts.last?.path ?? directory.path, reason: error.localizedDescription)
            }
        }
        try? handle?.close()
        if let failure { return .failure(failure) }
        return .success(summary)
    }
}
