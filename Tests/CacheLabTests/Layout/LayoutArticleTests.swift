import CacheLabTestSupport
import Foundation
import Testing

/// The DocC article Where things live names every module of `Sources/` and every folder in each,
/// so that a folder added without a word there fails here.
@Suite struct LayoutArticleTests {
    static let article = repositoryRoot.appendingPathComponent("Sources/CacheLab/CacheLab.docc/Layout.md")

    /// Every directory of `Sources/` (a module) and each of its folders, but DocC catalogs and C
    /// headers.
    static func sourceFolders() throws -> [(module: String, folders: [String])] {
        let manager = FileManager.default
        let sources = repositoryRoot.appendingPathComponent("Sources")
        func directories(_ url: URL) throws -> [String] {
            try manager.contentsOfDirectory(atPath: url.path).filter { name in
                var isDirectory: ObjCBool = false
                return manager.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
                    && isDirectory.boolValue && !name.hasSuffix(".docc") && name != "include"
            }.sorted()
        }
        return try directories(sources).map { ($0, try directories(sources.appendingPathComponent($0))) }
    }

    @Test func namesEveryModuleAndEachOfItsFolders() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let modules = try Self.sourceFolders()
        #expect(modules.count >= 10, "Sources/ not found where the tests expect it")
        for (module, folders) in modules {
            // The module's block: its own line, up to the next line naming another module.
            guard let start = lines.firstIndex(where: { $0.hasPrefix("Sources/\(module)/") }) else {
                Issue.record("Layout.md does not name Sources/\(module)/")
                continue
            }
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("Sources/") } ?? lines.count
            let block = lines[start..<end].joined(separator: "\n")
            for folder in folders where !block.contains("\(folder)/") {
                Issue.record("Layout.md names Sources/\(module)/ but not its folder \(folder)/")
            }
        }
    }
}
