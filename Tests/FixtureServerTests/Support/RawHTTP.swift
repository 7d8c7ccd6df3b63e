import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A GET over a plain socket, reading until the server closes: shows what a client library hides
/// (a body shorter than its Content-Length, a reset). Runs on a thread of its own, not the pool.
struct RawResponse {
    var head = ""
    var body: [UInt8] = []
    /// `errno` of a failed read (ECONNRESET for a reset), nil when the server closed cleanly.
    var readError: Int32?

    var status: Int? { head.split(separator: " ").dropFirst().first.flatMap { Int($0) } }

    func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

enum RawHTTP {
    static func get(port: Int, path: String) async -> RawResponse {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: blockingGet(port: port, path: path)) }.start()
        }
    }

    /// Sends every request at once on one kept-alive connection (pipelined; the last asks to
    /// close) and splits what comes back into responses by their `Content-Length`.
    static func pipelined(port: Int, requests: [(path: String, headers: String)]) async -> [RawResponse] {
        let text = requests.enumerated().map { index, request in
            let close = index == requests.count - 1 ? "Connection: close\r\n" : ""
            return "GET \(request.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(request.headers)\(close)\r\n"
        }.joined()
        let raw = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: blockingExchange(port: port, request: text)) }.start()
        }
        var responses: [RawResponse] = []
        var rest = raw.received[...]
        while let end = headEnd(rest) {
            var response = RawResponse(head: String(decoding: rest[rest.startIndex..<end], as: UTF8.self))
            let length = response.header("Content-Length").flatMap { Int($0) } ?? 0
            let bodyStart = end + 4
            guard rest.endIndex - bodyStart >= length else { break }
            response.body = Array(rest[bodyStart..<bodyStart + length])
            responses.append(response)
            rest = rest[(bodyStart + length)...]
        }
        return responses
    }

    /// Where the blank line that ends a response's head starts, if `bytes` holds one.
    private static func headEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (bytes.startIndex..<bytes.endIndex - 3).first { index in
            bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10
        }
    }

    private static func blockingGet(port: Int, path: String) -> RawResponse {
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        let (received, readError) = blockingExchange(port: port, request: request)
        var response = RawResponse(readError: readError)
        if let end = headEnd(received[...]) {
            response.head = String(decoding: received[0..<end], as: UTF8.self)
            response.body = Array(received[(end + 4)...])
        }
        return response
    }

    /// Sends `request` and reads until the server closes; the bytes, and `errno` of a failed read.
    private static func blockingExchange(port: Int, request text: String) -> (received: [UInt8], readError: Int32?) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
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
        guard connected == 0 else { return ([], errno) }
        let request = Array(text.utf8)
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        var received: [UInt8] = []
        var readError: Int32?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            if count < 0 {
                readError = errno
                break
            }
            received += buffer[0..<count]
        }
        return (received, readError)
    }
}
