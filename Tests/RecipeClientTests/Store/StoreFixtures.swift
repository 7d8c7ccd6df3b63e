import CacheEngine
import CacheLab
import ClientModel
import Foundation
import Testing

@testable import RecipeClient

/// Temporary store files and deterministic image bytes for the store tests.
enum StoreFixtures {
    /// A fresh temporary directory, removed after `body` returns or throws.
    @discardableResult
    static func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cachelab-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory.path)
    }

    /// `withTemporaryDirectory`, passing the path of a store file inside it (not yet created).
    @discardableResult
    static func withStorePath<T>(_ body: (String) throws -> T) throws -> T {
        try withTemporaryDirectory { try body($0 + "/images.sqlite") }
    }

    /// `count` deterministic bytes that differ with `seed`.
    static func image(_ seed: UInt64, count: Int = 100) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    static func url(_ number: Int) -> String {
        "http://127.0.0.1:8080/photos/\(number)/small.jpg"
    }

    /// An LRU disk tier of `capacity` bytes over the store at `path`.
    static func makeLRUTier(path: String, capacity: Int = 300, at now: Int64 = 0) throws -> DiskTier<LRUPolicy> {
        try DiskTier(path: path, configuration: CacheConfiguration(capacity: capacity), at: now)
    }

    /// Changes a row behind the store's back, through a second connection.
    static func corrupt(path: String, url: String, bytes: [UInt8]) throws {
        let raw = try SQLiteDatabase(path: path)
        try raw.prepare("UPDATE images SET bytes = ?2 WHERE url = ?1").execute(.text(url), .blob(bytes))
        #expect(raw.changes == 1)
    }
}
