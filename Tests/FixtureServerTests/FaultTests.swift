import CacheLabTestSupport
import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import FixtureServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct FaultTests {
    static let photo = FixtureCatalog.generated().recipes[0].largePhoto

    func configuration(_ fault: FaultKind, rate: Double = 1) -> FixtureConfiguration {
        Fixtures.makeConfiguration(faults: FaultRates([fault: rate]))
    }

    @Test func serverErrorFaultAnswers503AndIsCounted() async throws {
        try await TestClient.withServer(configuration(.serverError)) { client in
            try await client.execute(uri: Self.photo.path, method: .get) { #expect($0.status == .serviceUnavailable) }
            try await client.execute(uri: "/recipes.json", method: .get) { #expect($0.status == .serviceUnavailable) }
            let stats = try await client.execute(uri: "/stats", method: .get) {
                try JSONDecoder().decode(FixtureStats.self, from: Data(buffer: $0.body))
            }
            #expect(stats.faults == ["5xx": 2])
            #expect(stats[.largePhoto].faults == 1 && stats.bytes == 0)
        }
    }

    @Test func lengthFaultSendsACompleteLookingResponseWithACutBody() async throws {
        try await TestClient.withServer(configuration(.length)) { client in
            try await client.execute(uri: Self.photo.path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes < Self.photo.size)
                #expect(response.headers[.contentLength] == "\(response.body.readableBytes)")
                // the JPEG end marker is missing: a client checking it finds the cut
                #expect(response.body.getBytes(at: response.body.readableBytes - 2, length: 2) != [0xFF, 0xD9])
            }
        }
    }

    @Test func dripFaultSendsTheWholeBodyInSmallChunksWithPauses() async throws {
        let clock = RecordingClock()
        try await TestClient.withServer(configuration(.drip), clock: clock) { client in
            try await client.execute(uri: Self.photo.path, method: .get) {
                #expect($0.body.readableBytes == Self.photo.size)
            }
        }
        // 1 KiB chunks, 20 ms apart
        #expect(clock.sleeps.count == (Self.photo.size + 1_023) / 1_024 - 1)
        #expect(clock.sleeps.allSatisfy { $0 == .milliseconds(20) })
    }

    @Test func truncateFaultSendsFewerBytesThanContentLengthThenCloses() async throws {
        let server = try await FixtureServer.start(configuration: configuration(.truncate), clock: RecordingClock())
        let response = await RawHTTP.get(port: server.port, path: Self.photo.path)
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "\(Self.photo.size)")
        #expect(response.body.count < Self.photo.size)
        let stats = await server.stats()
        #expect(stats.faults == ["truncate": 1])
        #expect(stats.bytes == Self.photo.size / 2)
        try await server.stop()
    }

    @Test func resetFaultClosesTheConnectionWithoutAResponse() async throws {
        let server = try await FixtureServer.start(configuration: configuration(.reset), clock: RecordingClock())
        let response = await RawHTTP.get(port: server.port, path: "/recipes.json")
        #expect(response.head.isEmpty && response.body.isEmpty)
        #expect(response.readError == ECONNRESET)
        // and URLSession reports it as an error
        let url = try #require(URL(string: server.baseURL + Self.photo.path))
        await #expect(throws: (any Error).self) { _ = try await LiveTests.session.data(from: url) }
        #expect(await server.stats().faults == ["reset": 2])
        try await server.stop()
    }

    @Test func faultsAreDrawnFromTheSeedAndRequestNumber() async throws {
        // Given two servers with the same seed and 30 % faults of every kind but reset
        func statuses() async throws -> [HTTPResponse.Status] {
            var configuration = Fixtures.makeConfiguration(seed: 9)
            configuration.faults = .spread(0.3, over: [.serverError, .length, .drip])
            return try await TestClient.withServer(configuration) { client in
                var statuses: [HTTPResponse.Status] = []
                for _ in 0..<200 {
                    statuses.append(try await client.execute(uri: "/recipes-empty.json", method: .get) { $0.status })
                }
                return statuses
            }
        }
        // Then the same requests get the same faults, about as often as asked
        let first = try await statuses()
        #expect(first == (try await statuses()))
        #expect((10...30).contains(first.filter { $0 == .serviceUnavailable }.count))
    }
}
