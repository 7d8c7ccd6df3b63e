/// One request read off a connection's bytes as `PhotoFastPath` needs it: where it ends, and
/// whether it is a plain photo `GET` the fast path may answer itself.
///
/// Only requests without a body are framed here (no `Content-Length` other than 0, no
/// `Transfer-Encoding`): a request with a body, a folded header line, an upgrade, a bare `\r` or
/// `\n`, or a head longer than `longestHead` is `unframed`, and the connection's remaining bytes
/// go to SwiftNIO's parser.
enum WireRequestHead: Equatable {
    /// The head has not all arrived yet.
    case incomplete
    /// A request of `length` bytes (its head: it has no body). `photo` is set when it is
    /// `GET /photos/<rest> HTTP/1.1` on a connection kept open (no `Connection: close`), with no
    /// `Expect` and at most one `If-None-Match`: the offsets of `rest` and of that header's value.
    case bodyless(length: Int, photo: Photo?)
    /// Not framed here: the rest of the connection goes to the full parser.
    case unframed

    struct Photo: Equatable {
        /// The bytes after `/photos/` in the request target.
        var rest: Range<Int>
        var ifNoneMatch: Range<Int>?
    }

    /// Longer heads go to the full parser, whose limits apply.
    static let longestHead = 8_192

    /// Reads the request at the start of `bytes`.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> WireRequestHead {
        guard let end = headEnd(bytes) else { return bytes.count > longestHead ? .unframed : .incomplete }
        guard let requestLineEnd = lineEnd(bytes, from: 0, before: end) else { return .unframed }
        let rest = photoRest(bytes, lineEnd: requestLineEnd)
        var answerable = true
        var ifNoneMatch: Range<Int>?
        var start = requestLineEnd + 2
        while start < end {
            guard let stop = lineEnd(bytes, from: start, before: end) else { return .unframed }
            // A folded line (obsolete) or a line with no name: the full parser decides.
            guard bytes[start] != space, bytes[start] != tab,
                let colon = (start..<stop).first(where: { bytes[$0] == colonByte }), colon > start
            else { return .unframed }
            var valueStart = colon + 1
            var valueEnd = stop
            while valueStart < valueEnd, bytes[valueStart] == space || bytes[valueStart] == tab { valueStart += 1 }
            while valueEnd > valueStart, bytes[valueEnd - 1] == space || bytes[valueEnd - 1] == tab { valueEnd -= 1 }
            let name = start..<colon
            let value = valueStart..<valueEnd
            if equalsIgnoringCase(bytes, name, "content-length") {
                guard value.count == 1, bytes[value.lowerBound] == UInt8(ascii: "0") else { return .unframed }
            } else if equalsIgnoringCase(bytes, name, "transfer-encoding") || equalsIgnoringCase(bytes, name, "upgrade")
            {
                return .unframed
            } else if equalsIgnoringCase(bytes, name, "connection") {
                if contains(bytes, value, "close") { answerable = false }
            } else if equalsIgnoringCase(bytes, name, "if-none-match") {
                if ifNoneMatch != nil { answerable = false }
                ifNoneMatch = value
            } else if equalsIgnoringCase(bytes, name, "expect") {
                answerable = false
            }
            start = stop + 2
        }
        let length = end + 4
        guard let rest, answerable else { return .bodyless(length: length, photo: nil) }
        return .bodyless(length: length, photo: Photo(rest: rest, ifNoneMatch: ifNoneMatch))
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let colonByte = UInt8(ascii: ":")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let lineFeed = UInt8(ascii: "\n")

    /// The offset of the blank line's `\r\n\r\n`, or nil when the head has not ended.
    private static func headEnd(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        while index + 3 < bytes.count {
            let last = bytes[index + 3]
            if last != lineFeed {
                // A `\r` there may begin the pattern or be its third byte; anything else is in neither.
                index += last == carriageReturn ? 1 : 4
            } else if bytes[index] == carriageReturn, bytes[index + 1] == lineFeed, bytes[index + 2] == carriageReturn {
                return index
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The offset of the `\r\n` ending the line that starts at `start` (at most `limit`, where the
    /// blank line's begins); nil for a bare `\r` or `\n` in it.
    private static func lineEnd(_ bytes: UnsafeRawBufferPointer, from start: Int, before limit: Int) -> Int? {
        var index = start
        while index <= limit {
            let byte = bytes[index]
            if byte == carriageReturn { return bytes[index + 1] == lineFeed ? index : nil }
            if byte == lineFeed { return nil }
            index += 1
        }
        return nil
    }

    /// `GET /photos/<rest> HTTP/1.1`: the range of `rest`, or nil for any other request line.
    private static func photoRest(_ bytes: UnsafeRawBufferPointer, lineEnd: Int) -> Range<Int>? {
        let method: StaticString = "GET /photos/"
        let version: StaticString = " HTTP/1.1"
        let restStart = method.utf8CodeUnitCount
        let restEnd = lineEnd - version.utf8CodeUnitCount
        guard restEnd > restStart, matches(bytes, at: 0, method), matches(bytes, at: restEnd, version),
            !(restStart..<restEnd).contains(where: { bytes[$0] == space })
        else { return nil }
        return restStart..<restEnd
    }

    /// The bytes at `offset` are `text`, exactly.
    private static func matches(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { text in
            offset >= 0 && offset + text.count <= bytes.count
                && text.indices.allSatisfy { bytes[offset + $0] == text[$0] }
        }
    }

    /// The bytes of `range` are `lowercase` (letters, digits and `-`) in any case.
    private static func equalsIgnoringCase(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ lowercase: StaticString
    )
        -> Bool
    {
        lowercase.withUTF8Buffer { text in
            range.count == text.count
                && text.indices.allSatisfy { index in
                    let byte = bytes[range.lowerBound + index]
                    return byte == text[index] || (byte | 0x20 == text[index] && text[index] >= UInt8(ascii: "a"))
                }
        }
    }

    /// `range` contains `lowercase` in any case.
    private static func contains(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ lowercase: StaticString
    )
        -> Bool
    {
        let length = lowercase.utf8CodeUnitCount
        guard range.count >= length else { return false }
        return (range.lowerBound...(range.upperBound - length)).contains { start in
            equalsIgnoringCase(bytes, start..<(start + length), lowercase)
        }
    }
}
