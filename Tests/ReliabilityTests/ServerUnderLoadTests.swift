import CacheLabLocking
import CacheLabTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `cachelab serve` as its own process, against a slowloris client and against 1,000 connections
/// at once; its memory is read from /proc, apart from the tests'.
@Suite("The fixture server under hostile and heavy clients")
struct ServerUnderLoadTests {
    /// A served `cachelab serve --port 0` and what it answers.
    struct Served {
        let process: ChildProcess
        let url: String
        let port: Int
        /// Every photo path of its catalog, from `/recipes.json`.
        let photos: [String]

        init() throws {
            process = try ChildProcess(cachelab: ["serve", "--port", "0"])
            guard let line = process.firstLine(), let port = line.split(separator: ":").last.flatMap({ Int($0) })
            else { throw ChildProcessError("cachelab serve printed no URL: \(process.standardError)") }
            url = line
            self.port = port
            guard let connection = RawConnection(port: port) else { throw ChildProcessError("cannot connect") }
            connection.send("GET /recipes.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let list = String(decoding: connection.readResponse()?.body ?? [], as: UTF8.self)
            photos = list.split(separator: "\"").compactMap { field in
                field.range(of: "/photos/").map { String(field[$0.lowerBound...]) }
            }
        }

        /// GETs `path` on `connection` (kept alive); whether a whole 200 came back.
        func fetch(_ path: String, on connection: RawConnection) -> Bool {
            guard connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
                let response = connection.readResponse()
            else { return false }
            return response.status == 200 && response.header("Content-Length") == "\(response.body.count)"
                && !response.body.isEmpty
        }
    }

    @Test func itListensOnLoopbackAndAnswersOnlyItsCatalog() async throws {
        let outcome = await onOwnThread { () -> Result<(url: String, statuses: [Int?]), any Error> in
            Result {
                let served = try Served()
                let paths = [
                    "/photos/../recipes.json", "/photos/%2e%2e/recipes.json", "/etc/passwd", "/photos/x/small.jpg",
                ]
                return (
                    served.url,
                    paths.map { path in
                        let connection = RawConnection(port: served.port)
                        connection?.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                        return connection?.readResponse()?.status
                    }
                )
            }
        }
        let (url, statuses) = try outcome.get()
        #expect(url.hasPrefix("http://127.0.0.1:"))
        #expect(statuses == [404, 404, 404, 404])
    }

    @Test func aSlowlorisClientDoesNotHoldUpOthers() async throws {
        let outcome = await onOwnThread { () -> Result<(served: Int, slowest: Double, held: Int), any Error> in
            Result {
                let served = try Served()
                // 100 connections that send a request head a header line at a time and never end it
                let slow = (0..<100).compactMap { _ in RawConnection(port: served.port) }
                for connection in slow { connection.send("GET /recipes.json HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
                let done = Locked(false)
                let descriptors = slow.map(\.descriptor)
                let stopped = DispatchSemaphore(value: 0)
                let dribbler = Thread {
                    while !done.withLock({ $0 }) {
                        for descriptor in descriptors { RawConnection.send("X-Slow: 1\r\n", on: descriptor) }
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                    stopped.signal()
                }
                dribbler.start()
                // while other clients ask for photos, each on a new connection
                var answered = 0
                var slowest = 0.0
                for index in 0..<300 {
                    let started = Date()
                    guard let connection = RawConnection(port: served.port) else { continue }
                    if served.fetch(served.photos[index % served.photos.count], on: connection) { answered += 1 }
                    slowest = max(slowest, Date().timeIntervalSince(started))
                }
                done.withLock { $0 = true }
                stopped.wait()  // before the connections close and their descriptors are reused
                return withExtendedLifetime(slow) { (answered, slowest, slow.count) }
            }
        }
        let (answered, slowest, held) = try outcome.get()
        #expect(held == 100)
        #expect(answered == 300)
        #expect(slowest < 1.0 * sanitizerSlowdown, "the slowest photo took \(slowest) s")
        print("slowloris: \(held) slow connections held open; 300 of 300 photos served, slowest \(slowest) s")
    }

    @Test func aThousandConcurrentConnectionsAreServedInBoundedMemory() async throws {
        raiseOpenFileLimit(to: 4_096)
        let outcome = await onOwnThread { () -> Result<(served: Int, before: Int, peak: Int), any Error> in
            Result {
                let served = try Served()
                let warm = RawConnection(port: served.port)
                for photo in served.photos { _ = warm.map { served.fetch(photo, on: $0) } }
                guard let before = served.process.memory() else { throw ChildProcessError("no /proc memory") }
                let connections = (0..<1_000).compactMap { _ in RawConnection(port: served.port) }
                guard connections.count == 1_000 else { throw ChildProcessError("\(connections.count) connected") }
                var answered = 0
                // two rounds over all of them, every connection open throughout
                for round in 0..<2 {
                    for (index, connection) in connections.enumerated()
                    where served.fetch(served.photos[(index + round) % served.photos.count], on: connection) {
                        answered += 1
                    }
                }
                let after = served.process.memory()
                return (answered, before.resident, after?.peak ?? .max)
            }
        }
        let (answered, before, peak) = try outcome.get()
        #expect(answered == 2_000)
        let growth = peak - before
        #expect(growth < 64 << 20, "the server grew by \(growth >> 20) MiB")
        print(
            "1,000 connections: \(answered) photos served; server memory \(before >> 20) MiB before, "
                + "peak \(peak >> 20) MiB (\(growth / 1_000 / 1_024) KiB per connection)")
    }

    private func raiseOpenFileLimit(to wanted: rlim_t) {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
