import Foundation

/// A temporary folder for one test, removed after it.
public enum TemporaryFolder {
    public static func with(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cachelab-sweep-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }
}
