import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A response read off a plain socket: shows what a client library hides (a body shorter than
/// its Content-Length, a reset).
public struct RawResponse: Sendable {
    public var head = ""
    public var body: [UInt8] = []
    /// `errno` of a failed read (ECONNRESET for a reset), nil when the server closed cleanly.
    public var readError: Int32?

    public init(head: String = "", body: [UInt8] = [], readError: Int32? = nil) {
        self.head = head
        self.body = body
        self.readError = readError
    }

    public var status: Int? { head.split(separator: " ").dropFirst().first.flatMap { Int($0) } }

    public func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// HTTP/1.1 over plain blocking sockets to 127.0.0.1. The `async` calls run on a thread of their
/// own, never blocking the concurrency pool; `RawConnection` is for code already on such a thread.
public enum RawHTTP {
    /// One GET on a new connection that asks to close, read until the server closes.
    public static func get(port: Int, path: String) async -> RawResponse {
        await onOwnThread { blockingGet(port: port, path: path) }
    }

    /// Sends every request at once on one kept-alive connection (pipelined; the last asks to
    /// close) and splits what comes back into responses by their `Content-Length`.
    public static func pipelined(port: Int, requests: [(path: String, headers: String)]) async -> [RawResponse] {
        let text = requests.enumerated().map { index, request in
            let close = index == requests.count - 1 ? "Connection: close\r\n" : ""
            return "GET \(request.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(request.headers)\(close)\r\n"
        }.joined()
        let raw = await onOwnThread { () -> (received: [UInt8], readError: Int32?) in
            guard let connection = RawConnection(port: port) else { return ([], errno) }
            connection.send(text)
            return connection.readUntilClosed()
        }
        var responses: [RawResponse] = []
        var rest = raw.received[...]
        while let (response, length) = split(rest) {
            responses.append(response)
            rest = rest[(rest.startIndex + length)...]
        }
        return responses
    }

    /// The response at the start of `bytes` and how many bytes it took, if all of it is there.
    static func split(_ bytes: ArraySlice<UInt8>) -> (RawResponse, Int)? {
        guard let end = headEnd(bytes) else { return nil }
        var response = RawResponse(head: String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self))
        let length = response.header("Content-Length").flatMap { Int($0) } ?? 0
        let bodyStart = end + 4
        guard bytes.endIndex - bodyStart >= length else { return nil }
        response.body = Array(bytes[bodyStart..<bodyStart + length])
        return (response, bodyStart + length - bytes.startIndex)
    }

    /// Where the blank line that ends a response's head starts, if `bytes` holds one.
    static func headEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (bytes.startIndex..<bytes.endIndex - 3).first { index in
            bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10
        }
    }

    private static func blockingGet(port: Int, path: String) -> RawResponse {
        guard let connection = RawConnection(port: port) else { return RawResponse(readError: errno) }
        connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        let (received, readError) = connection.readUntilClosed()
        var response = RawResponse(readError: readError)
        if let end = headEnd(received[...]) {
            response.head = String(decoding: received[0..<end], as: UTF8.self)
            response.body = Array(received[(end + 4)...])
        }
        return response
    }
}

/// One blocking TCP connection to 127.0.0.1, closed when released. Reads time out after 60 s:
/// on a loaded CI machine the server's handler can wait for seconds before it answers.
public final class RawConnection {
    public let descriptor: Int32
    private var buffered: [UInt8] = []

    /// Connects, or returns nil with `errno` set.
    public init?(port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let failure = errno
            close(socket)
            errno = failure
            return nil
        }
        descriptor = socket
    }

    deinit { close(descriptor) }

    /// Writes all of `text`; false if the connection failed.
    @discardableResult
    public func send(_ text: String) -> Bool {
        Self.send(text, on: descriptor)
    }

    /// Writes all of `text` to a connection's `descriptor` (from another thread, say, while the
    /// connection is kept by its owner); false if it failed.
    @discardableResult
    public static func send(_ text: String, on descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            bytes = bytes.dropFirst(sent)
        }
        return true
    }

    /// The next whole response on this kept-alive connection, or nil if it closed or failed first.
    public func readResponse() -> RawResponse? {
        while true {
            if let (response, length) = RawHTTP.split(buffered[...]) {
                buffered.removeFirst(length)
                return response
            }
            guard receive() > 0 else { return nil }
        }
    }

    /// Everything until the server closes, and `errno` of a failed read.
    public func readUntilClosed() -> (received: [UInt8], readError: Int32?) {
        while true {
            let count = receive()
            if count == 0 { return (buffered, nil) }
            if count < 0 { return (buffered, errno) }
        }
    }

    private func receive() -> Int {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 { buffered += chunk[0..<count] }
        return count
    }
}

/// Runs blocking `work` on a new thread and returns its result, leaving the pool's threads free.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
