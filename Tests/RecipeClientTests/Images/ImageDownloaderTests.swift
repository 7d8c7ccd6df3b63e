import FixtureServer
import Foundation
import Testing

@testable import RecipeClient

/// `URLSessionImageDownloader` against a fixture server that gives every photo request the same
/// fault: each way a response can go wrong reaches the caller as its `ImageLoadingError`.
@Suite("URLSessionImageDownloader", .timeLimit(.minutes(1)))
struct ImageDownloaderTests {
    typealias F = ImageFixtures

    /// Downloads the first small photo from a server that injects `fault` into every response.
    func download(
        with fault: FaultKind?,
        _ check: (Result<[UInt8], any Error>, _ url: String, FixtureCatalog.Photo) throws -> Void
    ) async throws {
        let faults = fault.map { FaultRates([$0: 1]) } ?? .none
        try await F.withServer(F.makeConfiguration(faults: faults)) { server in
            let photo = F.smallPhotos(of: server)[0]
            let url = F.url(of: photo, on: server)
            let downloader = URLSessionImageDownloader(timeout: 5)
            let result: Result<[UInt8], any Error>
            do {
                result = .success(try await downloader.download(url))
            } catch {
                result = .failure(error)
            }
            try check(result, url, photo)
            if let fault {
                #expect(await server.stats().faults == [fault.rawValue: 1])
            }
        }
    }

    @Test func wholePhotoComesBackByteForByteAsAJPEG() async throws {
        try await download(with: nil) { result, _, photo in
            let bytes = try result.get()
            #expect(bytes == F.bytes(of: photo))
            #expect(ImageFormat.whole(bytes) == .jpeg)
        }
    }

    @Test func slowDripStillComesBackWhole() async throws {
        try await download(with: .drip) { result, _, photo in
            let bytes = try result.get()
            #expect(bytes == F.bytes(of: photo))
        }
    }

    @Test func serviceUnavailableIsAnHTTPStatusError() async throws {
        try await download(with: .serverError) { result, url, _ in
            #expect(throws: ImageLoadingError.httpStatus(url: url, status: 503)) { try result.get() }
        }
    }

    @Test func bodyCutShortOfItsContentLengthIsAnError() async throws {
        try await download(with: .truncate) { result, url, photo in
            let error = #expect(throws: ImageLoadingError.self) { try result.get() }
            switch error {
            case .transport(let failed, _)?:
                #expect(failed == url)
            case .incomplete(let failed, let expected, let received)?:
                #expect(failed == url && expected == photo.size && received < photo.size)
            default:
                Issue.record("a truncated body gave \(String(describing: error))")
            }
        }
    }

    @Test func shortContentLengthIsNotAWholeImage() async throws {
        // The server announces and sends a prefix of the photo: the length agrees, the JPEG end
        // marker is missing.
        try await download(with: .length) { result, url, photo in
            #expect(throws: ImageLoadingError.notAnImage(url: url, bytes: photo.size - photo.size / 4)) {
                try result.get()
            }
        }
    }

    @Test func connectionResetIsATransportError() async throws {
        try await download(with: .reset) { result, url, _ in
            let error = #expect(throws: ImageLoadingError.self) { try result.get() }
            guard case .transport(let failed, _)? = error else {
                Issue.record("a reset gave \(String(describing: error))")
                return
            }
            #expect(failed == url)
        }
    }

    @Test func missingPhotoIsAnHTTPStatusError() async throws {
        try await F.withServer { server in
            let url = server.baseURL + "/photos/nowhere/small.jpg"
            await #expect(throws: ImageLoadingError.httpStatus(url: url, status: 404)) {
                try await URLSessionImageDownloader().download(url)
            }
        }
    }

    @Test func stringThatIsNotAURLIsAnInvalidURLError() async throws {
        await #expect(throws: ImageLoadingError.invalidURL("")) {
            try await URLSessionImageDownloader().download("")
        }
    }
}
