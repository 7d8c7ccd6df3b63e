#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of a text trace, read from a `ByteSource` a block at a time: each line a byte range
/// of `base`, without its `\n` or `\r\n`, numbered from 1. A range is valid until the next call
/// to `next()`, which may move or replace the buffer.
///
/// Memory is one buffer (1 MiB, doubled for a line that does not fit, up to 64 MiB), whatever the
/// size of the file.
final class LineReader {
    /// The longest line accepted: a longer one is no trace line.
    static let maximumLineLength = 64 << 20

    private let source: any ByteSource
    private var storage: UnsafeMutableRawBufferPointer
    /// Where the next line starts, and the end of the bytes read.
    private var head = 0
    private var tail = 0
    private var exhausted = false
    /// While set, nothing read is discarded, so `rewind()` can go back to the first byte.
    private var keepsEverything: Bool
    /// How many requests the reader's owner had taken when it asked for the current line, for a
    /// decompression error's message.
    private var requestsRead = 0

    /// The 1-based number of the line `next()` returned last.
    private(set) var number = 0

    var file: String { source.file }

    /// The buffer the ranges `next()` returns point into.
    private(set) var base: UnsafeBufferPointer<UInt8>

    /// - Parameter rewindable: keep every byte read until `rewind()` or `forgetBeginning()`, so
    ///   that the first lines can be looked at (to tell the format) and then read again.
    init(_ source: any ByteSource, blockSize: Int = 1 << 20, rewindable: Bool = false) {
        self.source = source
        storage = .allocate(byteCount: max(blockSize, 16), alignment: 16)
        base = UnsafeBufferPointer(
            start: storage.baseAddress!.assumingMemoryBound(to: UInt8.self), count: storage.count)
        keepsEverything = rewindable
    }

    deinit { storage.deallocate() }

    /// The next line, or `nil` past the end (a final `\n` does not start another line).
    ///
    /// - Parameter requestsSoFar: requests read before this line, named by a decompression error.
    func next(requestsSoFar: Int = 0) throws(TraceError) -> Range<Int>? {
        requestsRead = requestsSoFar
        var searched = head
        while true {
            if searched < tail,
                let found = memchr(storage.baseAddress! + searched, Int32(UInt8(ascii: "\n")), tail - searched)
            {
                let newline = storage.baseAddress!.distance(to: found)
                return take(upTo: newline, after: newline + 1)
            }
            searched = tail
            if exhausted {
                guard head < tail else { return nil }
                return take(upTo: tail, after: tail)
            }
            let moved = try refill()
            searched -= moved
        }
    }

    /// Whether nothing but spaces, tabs and line breaks follows the last line returned (reading
    /// to the end of the file to tell).
    func restIsBlank() throws(TraceError) -> Bool {
        while true {
            while head < tail {
                switch base[head] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): head += 1
                default: return false
                }
            }
            if exhausted { return true }
            _ = try refill()
        }
    }

    /// Goes back to the first line (only for a reader made `rewindable`), and stops keeping
    /// every byte.
    func rewind() {
        precondition(keepsEverything, "LineReader.rewind: the reader was not made rewindable")
        head = 0
        number = 0
        keepsEverything = false
    }

    /// The line ending at `end`, the next one starting at `next`.
    @inline(__always)
    private func take(upTo end: Int, after next: Int) -> Range<Int> {
        let start = head
        head = next
        number += 1
        var stop = end
        if stop > start && base[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
        return start..<stop
    }

    /// Moves the unread bytes to the front (unless keeping everything), grows the buffer if a
    /// line fills it, and reads one more block. Returns how far the unread bytes moved back.
    private func refill() throws(TraceError) -> Int {
        var moved = 0
        if !keepsEverything && head > 0 {
            moved = head
            if tail > head { memmove(storage.baseAddress!, storage.baseAddress! + head, tail - head) }
            tail -= head
            head = 0
        }
        if tail == storage.count {
            guard storage.count < Self.maximumLineLength else {
                throw .malformedLine(
                    file: source.file, line: number + 1,
                    reason: "the line is longer than \(Self.maximumLineLength >> 20) MiB; is this a trace?")
            }
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 16)
            grown.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: tail)
            storage.deallocate()
            storage = grown
            base = UnsafeBufferPointer(
                start: storage.baseAddress!.assumingMemoryBound(to: UInt8.self), count: storage.count)
        }
        let count: Int
        do {
            count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[tail...]))
        } catch {
            throw error.afterRequests(requestsRead)
        }
        if count == 0 { exhausted = true } else { tail += count }
        return moved
    }

    /// Bytes of the file consumed so far, and its size: progress.
    var consumed: Int { source.consumed }
    var total: Int? { source.total }
}

extension TraceError {
    /// A decompression error that names how many requests came before it.
    func afterRequests(_ count: Int) -> TraceError {
        guard case .brokenCompression(let file, let offset, nil, let reason) = self else { return self }
        return .brokenCompression(file: file, byteOffset: offset, requestsRead: count, reason: reason)
    }
}
