import Foundation

/// Where the read-only material shared by all cachelab work lives: the `shared` folder beside the
/// package (`/work/main` → `/work/shared`), or the folder `CACHELAB_SHARED` names.
///
/// It is not part of the repository, so tests that need it use
/// `@Test(.enabled(if: SharedFixtures.tracesAvailable))` and are skipped where it is absent.
public enum SharedFixtures {
    /// The package root.
    public static let packageRoot: String = repositoryRoot.path

    /// The shared folder, or `nil` when it is absent.
    public static let root: String? = {
        let candidate =
            ProcessInfo.processInfo.environment["CACHELAB_SHARED"]
            ?? URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent("shared").path
        return isDirectory(candidate) ? candidate : nil
    }()

    /// `shared/traces`, libCacheSim's public traces, or `nil` when absent.
    public static let tracesDirectory: String? = root.map { $0 + "/traces" }.flatMap { isDirectory($0) ? $0 : nil }

    /// Whether `shared/traces` is present.
    public static var tracesAvailable: Bool { tracesDirectory != nil }

    /// The path of the shared trace file `name`, or `nil` when it is absent.
    public static func trace(_ name: String) -> String? {
        guard let directory = tracesDirectory else {
            return nil
        }
        let path = directory + "/" + name
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
