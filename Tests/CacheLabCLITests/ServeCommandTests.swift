import ArgumentParser
import CacheEngine
import CacheLab
import ClientModel
import FixtureServer
import Foundation
import Testing

@testable import CacheLabCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `cachelab serve` parsed in-process, and the built binary serving over loopback.
@Suite("cachelab serve")
struct ServeCommandTests {
    func parseServe(_ arguments: [String]) throws -> ServeCommand {
        try #require(try CacheLabCommand.parseAsRoot(["serve"] + arguments) as? ServeCommand)
    }

    /// The one-line message the CLI prints for `arguments`, or nil when they parse.
    func rejection(of arguments: [String]) -> String? {
        do {
            _ = try CacheLabCommand.parseAsRoot(["serve"] + arguments)
            return nil
        } catch {
            return CacheLabCommand.message(for: error)
        }
    }

    // MARK: Parsing

    @Test func serveParsesEveryOptionIntoTheServerConfiguration() throws {
        let serve = try parseServe([
            "--host", "0.0.0.0", "--port", "0", "--catalog", "recipes.json", "--recipes", "12", "--seed", "9",
            "--latency", "30", "--jitter", "20", "--bandwidth", "250000", "--fault-rate", "0.25", "--faults",
            "drip,5xx", "--max-age", "60",
        ])
        let configuration = try serve.makeConfiguration()
        #expect(configuration.host == "0.0.0.0" && configuration.port == 0)
        // --catalog wins over --recipes
        #expect(configuration.catalog == .file(path: "recipes.json"))
        #expect(configuration.seed == 9 && configuration.maxAge == 60)
        #expect(configuration.latency == .milliseconds(30) && configuration.jitter == .milliseconds(20))
        #expect(configuration.bandwidth == 250_000)
        #expect(try serve.faultKinds() == [.drip, .serverError])
        #expect(configuration.faults == .spread(0.25, over: [.serverError, .drip]))
        #expect(configuration.faults.rates == [.serverError: 0.125, .drip: 0.125])
    }

    @Test func serveDefaultsToAGeneratedCatalogOnPort8080WithoutShapingOrFaults() throws {
        let configuration = try parseServe([]).makeConfiguration()
        #expect(configuration.host == "127.0.0.1" && configuration.port == 8080)
        #expect(configuration.catalog == .generated(recipes: 63) && configuration.seed == 1)
        #expect(configuration.latency == .zero && configuration.jitter == .zero && configuration.bandwidth == nil)
        #expect(configuration.faults == .none && configuration.maxAge == 3_600)
    }

    @Test func relativePhotoPathsFlagReachesTheServerConfiguration() throws {
        #expect(try parseServe(["--relative-photo-paths"]).makeConfiguration().relativePhotoPaths)
        #expect(try !parseServe([]).makeConfiguration().relativePhotoPaths)
        #expect(CacheLabCommand.helpMessage(for: ServeCommand.self).contains("--relative-photo-paths"))
    }

    @Test func allFaultsMeansEveryKindAndRepeatsCountOnce() throws {
        #expect(try parseServe(["--faults", "all"]).faultKinds() == FaultKind.allCases)
        let repeated = try parseServe(["--fault-rate", "0.5", "--faults", "reset,reset,length"])
        #expect(try repeated.makeConfiguration().faults.rates == [.reset: 0.25, .length: 0.25])
    }

    @Test(arguments: [
        ["--port", "0"], ["--port", "65535"], ["--fault-rate", "0"], ["--fault-rate", "1"], ["--max-age", "0"],
        ["--latency", "0", "--jitter", "0"], ["--recipes", "1"], ["--bandwidth", "1"],
    ])
    func boundaryValuesAreAccepted(arguments: [String]) {
        #expect(rejection(of: arguments) == nil)
    }

    @Test(arguments: [
        (["--port", "65536"], "--port must be 0...65535"),
        (["--port=-1"], "--port must be 0...65535"),
        (["--port", "http"], "'http' is invalid for '--port"),
        (["--recipes", "0"], "--recipes must be at least 1"),
        (["--latency=-5"], "--latency and --jitter are milliseconds"),
        (["--jitter=-1"], "--latency and --jitter are milliseconds"),
        (["--bandwidth", "0"], "--bandwidth is bytes per second"),
        (["--fault-rate", "1.5"], "--fault-rate must be in 0...1"),
        (["--fault-rate=-0.1"], "--fault-rate must be in 0...1"),
        (["--fault-rate", "often"], "'often' is invalid for '--fault-rate"),
        (["--faults", "timeout"], "unknown fault 'timeout': use 5xx, reset, truncate, drip, length or all"),
        (["--faults", "5xx,slow"], "unknown fault 'slow'"),
        (["--max-age=-1"], "--max-age is seconds"),
        (["--seed=-1"], "'-1' is invalid for '--seed"),
        (["--speed", "9"], "Unknown option '--speed'"),
        (["--trace", "t.csv", "--catalog", "recipes.json"], "--trace and --catalog are alternatives"),
    ])
    func badOptionsAreRejectedWithAMessageSayingWhatToType(arguments: [String], expected: String) {
        let message = rejection(of: arguments)
        #expect(message?.contains(expected) == true, "\(arguments) gave \(message ?? "no error")")
    }

    @Test func helpListsEveryRouteAndFaultKind() {
        let help = CacheLabCommand.helpMessage(for: ServeCommand.self, columns: 1_000)
        for route in ["/recipes.json", "/recipes-malformed.json", "/recipes-empty.json", "/stats", "/stats/reset"] {
            #expect(help.contains(route))
        }
        for kind in FaultKind.allCases {
            #expect(help.contains(kind.rawValue) && help.contains(kind.summary))
        }
    }

    // MARK: The binary

    @Test(.timeLimit(.minutes(1)))
    func theBinaryPrintsItsURLServesListAndPhotoAndStopsCleanlyOnSIGTERM() async throws {
        // Given `cachelab serve` on a free port, with options that show in its answers
        let server = try ServeProcess(["--port", "0", "--recipes", "5", "--seed", "3", "--max-age", "60"])
        defer { server.kill() }
        let baseURL = try await server.firstLine(within: .seconds(30))
        let port = try #require(Int(baseURL.dropFirst("http://127.0.0.1:".count)))
        #expect(baseURL.hasPrefix("http://127.0.0.1:") && port > 0, "stdout began with \(baseURL)")

        // When a client fetches the list
        let (list, listResponse) = try await ServeProcess.get(baseURL + "/recipes.json")
        #expect(listResponse.statusCode == 200)
        #expect(listResponse.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let root = try JSONSerialization.jsonObject(with: list) as? [String: Any]
        let recipes = try #require(root?["recipes"] as? [[String: Any]])
        #expect(recipes.count == 5)
        let photoURL = try #require(recipes.first?["photo_url_small"] as? String)
        #expect(photoURL.hasPrefix(baseURL + "/photos/") && photoURL.hasSuffix("/small.jpg"))

        // and the first recipe's small photo
        let (photo, photoResponse) = try await ServeProcess.get(photoURL)

        // Then the photo is the generated catalog's, whole, with its validators
        let expected = FixtureCatalog.generated(recipes: 5, seed: 3).recipes[0].smallPhoto
        #expect(photoURL == baseURL + expected.path)
        #expect(photoResponse.statusCode == 200)
        #expect(photo.count == expected.size && (8_000...14_000).contains(photo.count))
        #expect(photoResponse.value(forHTTPHeaderField: "Content-Length") == String(photo.count))
        #expect(photoResponse.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(Array(photo.prefix(2)) == [0xFF, 0xD8] && Array(photo.suffix(2)) == [0xFF, 0xD9])
        #expect(photoResponse.value(forHTTPHeaderField: "Cache-Control") == "public, max-age=60")
        let etag = try #require(photoResponse.value(forHTTPHeaderField: "ETag"))
        #expect(etag.count == 18 && etag.first == "\"" && etag.last == "\"")
        let isHex = etag.dropFirst().dropLast().allSatisfy { $0.isHexDigit }
        #expect(isHex, "ETag \(etag) is not 16 hex digits")
        #expect(etag != listResponse.value(forHTTPHeaderField: "ETag"))

        // and revalidating it costs no body
        let (empty, revalidated) = try await ServeProcess.get(photoURL, ifNoneMatch: etag)
        #expect(revalidated.statusCode == 304 && empty.isEmpty)

        // and the server counted all three
        let (statsData, _) = try await ServeProcess.get(baseURL + "/stats")
        let stats = try JSONDecoder().decode(FixtureStats.self, from: statsData)
        #expect(stats.requests == 3 && stats.bytes == list.count + photo.count)
        #expect(stats[.smallPhoto].requests == 2 && stats[.smallPhoto].notModified == 1)

        // When it is sent SIGTERM, then it shuts down by itself, exits 0 and printed only the URL on stdout
        let ended = try await server.terminate(within: .seconds(20))
        #expect(ended.reason == .exit && ended.status == 0, "ended by \(ended.reason) with \(ended.status)")
        #expect(ended.stdout == baseURL + "\n")
        #expect(ended.stderr.contains("serving 5 recipes at \(baseURL)"))
    }

    @Test(.timeLimit(.minutes(1)))
    func theBinaryExitsWithOneLineWhenThePortIsTaken() async throws {
        // Given a server holding a port
        let holder = try ServeProcess(["--port", "0"])
        defer { holder.kill() }
        let baseURL = try await holder.firstLine(within: .seconds(30))
        let port = String(baseURL.split(separator: ":").last ?? "")

        // When a second one is asked for the same port
        let second = try ServeProcess(["--port", port])
        defer { second.kill() }
        let ended = try await second.waitForExit(within: .seconds(20))

        // Then it fails at once, says why on stderr and prints no URL
        #expect(ended.reason == .exit && ended.status != 0)
        #expect(ended.stdout.isEmpty)
        let lines = ended.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(
            lines == [
                "Error: cannot listen on 127.0.0.1:\(port): the port is in use (another server?); give another --port, or 0 for any free one"
            ],
            "stderr: \(ended.stderr)")
        let stopped = try await holder.terminate(within: .seconds(20))
        #expect(stopped.reason == .exit && stopped.status == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func theBinaryServesTheObjectsOfATraceAtTheirSizes() async throws {
        // Given a trace whose keys are photo URLs, one requested twice
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-serve-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("photos.csv").path
        let csv = """
            time,key,size
            0,https://cdn.invalid/photos/f1/small.jpg,1000
            1,https://cdn.invalid/photos/f1/large.jpg,5000
            2,https://cdn.invalid/photos/f1/small.jpg,1000
            """
        try Data(csv.utf8).write(to: URL(fileURLWithPath: trace))

        // When `cachelab serve --trace` serves it
        let server = try ServeProcess(["--port", "0", "--trace", trace])
        defer { server.kill() }
        let baseURL = try await server.firstLine(within: .seconds(30))

        // Then each object is a photo at its trace size, and anything else is 404
        for (path, size) in [("/photos/f1/small.jpg", 1_000), ("/photos/f1/large.jpg", 5_000)] {
            let (photo, response) = try await ServeProcess.get(baseURL + path)
            #expect(response.statusCode == 200 && photo.count == size, "\(path): \(response.statusCode)")
            #expect(Array(photo.suffix(2)) == [0xFF, 0xD9])
        }
        let (_, missing) = try await ServeProcess.get(baseURL + "/photos/f2/small.jpg")
        #expect(missing.statusCode == 404)
        let ended = try await server.terminate(within: .seconds(20))
        #expect(ended.reason == .exit && ended.status == 0)
        #expect(ended.stderr.contains("serving the 2 objects of \(trace) at \(baseURL)"), "stderr: \(ended.stderr)")
    }

    @Test(.timeLimit(.minutes(1)))
    func theBinaryRefusesATraceObjectSmallerThanAPhoto() async throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: trace) }
        try Data("time,key,size\n0,a,10\n".utf8).write(to: URL(fileURLWithPath: trace))

        let server = try ServeProcess(["--port", "0", "--trace", trace])
        defer { server.kill() }
        let ended = try await server.waitForExit(within: .seconds(20))

        #expect(ended.reason == .exit && ended.status != 0 && ended.stdout.isEmpty)
        #expect(ended.stderr.contains("at least 22 bytes"), "stderr: \(ended.stderr)")
    }
}

/// `cachelab serve` running as a child process: its stdout read line by line, every wait bounded,
/// and `kill()` (SIGKILL) in a `defer` so that no failing test leaves a server behind.
final class ServeProcess {
    struct Exit {
        var reason: Process.TerminationReason
        var status: Int32
        /// Everything written to stdout, the first line included.
        var stdout: String
        var stderr: String
    }

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let errors = Pipe()
    private let chunks: AsyncStream<Data>
    private let exited: AsyncStream<Void>
    private var received = Data()

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 10
        return URLSession(configuration: configuration)
    }()

    init(_ arguments: [String]) throws {
        process.executableURL = Binary.url
        process.arguments = ["serve"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let (chunks, chunk) = AsyncStream.makeStream(of: Data.self)
        self.chunks = chunks
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                chunk.finish()
            } else {
                chunk.yield(data)
            }
        }
        let (exited, exit) = AsyncStream.makeStream(of: Void.self)
        self.exited = exited
        process.terminationHandler = { _ in exit.finish() }
        try process.run()
    }

    /// The first line the server writes to stdout, without its newline.
    func firstLine(within limit: Duration) async throws -> String {
        let chunks = self.chunks
        let data = try await Self.withDeadline(limit, "the first line on stdout") {
            var data = Data()
            for await chunk in chunks {
                data.append(chunk)
                if data.contains(UInt8(ascii: "\n")) { break }
            }
            return data
        }
        received.append(data)
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")) else {
            kill()
            throw Timeout(description: "stdout closed before a line; stderr: \(readErrors())")
        }
        return String(decoding: data[..<newline], as: UTF8.self)
    }

    /// Sends SIGTERM and waits for the process to end by itself.
    func terminate(within limit: Duration) async throws -> Exit {
        send(SIGTERM, to: process.processIdentifier)
        return try await waitForExit(within: limit)
    }

    /// Waits for the process to end and returns how it did, with what it wrote.
    func waitForExit(within limit: Duration) async throws -> Exit {
        let exited = self.exited
        try await Self.withDeadline(limit, "the process to exit") {
            for await _ in exited {}
        }
        // The write ends are closed now: stdout's handler finishes its stream, stderr reads to its end.
        let chunks = self.chunks
        let rest = try await Self.withDeadline(.seconds(5), "stdout to close") {
            var rest = Data()
            for await chunk in chunks { rest.append(chunk) }
            return rest
        }
        received.append(rest)
        return Exit(
            reason: process.terminationReason, status: process.terminationStatus,
            stdout: String(decoding: received, as: UTF8.self), stderr: readErrors())
    }

    /// SIGKILL if still running, then reaps it. Safe to call more than once.
    func kill() {
        guard process.isRunning else { return }
        send(SIGKILL, to: process.processIdentifier)
        process.waitUntilExit()
    }

    private func readErrors() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    static func get(_ url: String, ifNoneMatch: String? = nil) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: try #require(URL(string: url)))
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let (data, response) = try await session.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    /// `body`'s result, or `Timeout` once `limit` has passed (the body is then cancelled).
    static func withDeadline<T: Sendable>(
        _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw Timeout(description: "waited \(limit) for \(what)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}

private func send(_ signal: Int32, to process: pid_t) {
    // The free function, not `ServeProcess.kill()`.
    _ = kill(process, signal)
}

/// The list as a web page for a browser, and `serve --record`.
@Suite("cachelab serve: the web page and the recording")
struct ServePageAndRecordTests {
    @Test(.timeLimit(.minutes(1)))
    func theBinaryServesThePagesAndRecordsEveryPhotoRequestAsATrace() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("served.csv").path

        // Given `cachelab serve --record` with tablet rows
        let server = try ServeProcess(["--port", "0", "--recipes", "5", "--device", "tablet", "--record", out])
        defer { server.kill() }
        let baseURL = try await server.firstLine(within: .seconds(30))
        let catalog = FixtureCatalog.generated(recipes: 5)

        // When a browser reads the list page, a recipe's page, and asks for two photos
        let (page, pageResponse) = try await ServeProcess.get(baseURL + "/")
        let html = String(decoding: page, as: UTF8.self)
        #expect(pageResponse.statusCode == 200)
        #expect(pageResponse.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
        #expect(html.components(separatedBy: "loading=\"lazy\"").count - 1 == 5)
        #expect(html.contains("height: 120px"))
        let recipe = catalog.recipes[1]
        let (detail, _) = try await ServeProcess.get(baseURL + "/recipes/\(recipe.uuid)")
        #expect(String(decoding: detail, as: UTF8.self).contains(recipe.largePhoto.path))
        let (_, missing) = try await ServeProcess.get(baseURL + "/recipes/no-such-recipe")
        #expect(missing.statusCode == 404)
        for photo in [recipe.smallPhoto, recipe.largePhoto] { _ = try await ServeProcess.get(baseURL + photo.path) }

        // Then on SIGTERM the photo requests are a trace, in arrival order, the parts gone
        let ended = try await server.terminate(within: .seconds(20))
        #expect(ended.status == 0, "\(ended.stderr)")
        let trace = try TraceReader.read(path: out)
        #expect(trace.count == 2)
        #expect(
            trace.keyNames == [
                "https://recipes.example" + recipe.smallPhoto.path, "https://recipes.example" + recipe.largePhoto.path,
            ])
        #expect(trace.sizes == [recipe.smallPhoto.size, recipe.largePhoto.size])
        #expect(trace.pixelSizes?.map { PixelSize(packed: $0)?.width } == [150, 700])
        #expect(!FileManager.default.fileExists(atPath: out + ".parts"))
        #expect(ended.stderr.contains("recorded 2 photo requests to \(out)"))
    }

    @Test func anUnfinishedRecordingIsNotOverwritten() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID())")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("t.csv.parts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: CLIError.self) { _ = try PhotoRecording(out: directory.appendingPathComponent("t.csv").path) }
    }
}
