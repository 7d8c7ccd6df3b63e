import Foundation
import Testing

@testable import RecipeClient

@Suite("Recipe list model on the SQLite store")
struct RecipeListModelSQLiteTests {
    @Test func aRelaunchThatFailsShowsTheListSavedInSQLite() async throws {
        try await StoreFixtures.withStorePathAsync { path in
            // Given a first launch that fetched two recipes into the SQLite file
            let first = StubServer()
            first.script(.ok(Fixtures.twoRecipesJSON))
            let good = await RecipeListModel(
                service: first.makeService(), store: try DiskStore(path: path), retryPolicy: .never,
                sleep: { _ in }, now: { 1 }
            ).load().recipes
            #expect(good.count == 2)

            // When the app relaunches (a new model, a new connection to the same file) offline
            let second = StubServer()
            second.script(.failure(.notConnectedToInternet))
            let state = await RecipeListModel(
                service: second.makeService(), store: try DiskStore(path: path), retryPolicy: .never,
                sleep: { _ in }, now: { 2 }
            ).load()

            // Then the list saved in SQLite is shown with the error
            #expect(state.recipes == good)
            if case .failedWithLastGood = state {} else { Issue.record("expected failedWithLastGood, got \(state)") }
        }
    }
}

extension StoreFixtures {
    static func withStorePathAsync(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-list-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory.appendingPathComponent("store.sqlite").path)
    }
}
