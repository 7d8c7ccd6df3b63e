import Foundation
import Testing

@testable import RecipeClient

@Suite("SQLiteDatabase")
struct SQLiteDatabaseTests {
    @Test func opensInWALModeAndCreatesTheFile() throws {
        try StoreFixtures.withStorePath { path in
            let database = try SQLiteDatabase(path: path)
            #expect(try database.journalMode() == "wal")
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(try database.userVersion() == 0)
        }
    }

    @Test func bindsAndReadsEveryType() throws {
        try StoreFixtures.withStorePath { path in
            let database = try SQLiteDatabase(path: path)
            try database.execute("CREATE TABLE t (i INTEGER, s TEXT, b BLOB, n BLOB)")
            try database.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4)")
                .execute(.integer(-42), .text("héllo"), .blob([0, 1, 255]), .null)
            try database.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4)")
                .execute(.integer(Int64.max), .text(""), .blob([]), .blob([]))
            var rows: [String] = []
            try database.prepare("SELECT i, s, b, n FROM t ORDER BY rowid").forEachRow { row in
                rows.append("\(row.int64(at: 0)) \(row.text(at: 1)) \(row.blob(at: 2)) \(row.isNull(at: 3))")
            }
            // An empty blob stays an empty blob, not NULL.
            #expect(rows == ["-42 héllo [0, 1, 255] true", "\(Int64.max)  [] false"])
        }
    }

    @Test func transactionRollsBackWhenTheBodyThrows() throws {
        struct Abort: Error {}
        try StoreFixtures.withStorePath { path in
            let database = try SQLiteDatabase(path: path)
            try database.execute("CREATE TABLE t (i INTEGER)")
            // When a transaction inserts a row, then throws
            // (`-> Int` spelled out: with the body inferred as `-> Never`, this test saw Swift 6.3.1
            // run this closure again as the body of the next transaction; not yet minimized.)
            #expect(throws: Abort.self) {
                try database.transaction { () throws -> Int in
                    try database.execute("INSERT INTO t VALUES (1)")
                    throw Abort()
                }
            }
            // Then the row is gone, and a later transaction commits
            try database.transaction { try database.execute("INSERT INTO t VALUES (2)") }
            #expect(try database.prepare("SELECT group_concat(i) FROM t").query { $0.text(at: 0) } == "2")
        }
    }

    @Test func aFileThatIsNotSQLiteIsNotADatabase() throws {
        try StoreFixtures.withStorePath { path in
            // Given a file full of something else
            try Data(StoreFixtures.image(7, count: 4096)).write(to: URL(fileURLWithPath: path))
            // Then opening it names the problem
            #expect {
                _ = try DiskStore(path: path)
            } throws: { error in
                guard case .notADatabase(let errorPath, let code, _)? = error as? StoreError else { return false }
                return errorPath == path && code == 26
            }
        }
    }

    @Test func aMissingFolderCannotBeOpened() throws {
        try StoreFixtures.withTemporaryDirectory { directory in
            #expect {
                _ = try DiskStore(path: directory + "/missing/images.sqlite")
            } throws: { error in
                guard case .cannotOpen? = error as? StoreError else { return false }
                return true
            }
        }
    }

    @Test func aStoreFromANewerBuildIsRefused() throws {
        try StoreFixtures.withStorePath { path in
            try SQLiteDatabase(path: path).setUserVersion(99)
            #expect(throws: StoreError.newerSchema(path: path, found: 99, supported: DiskStore.schemaVersion)) {
                _ = try DiskStore(path: path)
            }
        }
    }

    @Test func writingThroughAReadOnlyConnectionIsReadOnly() throws {
        try StoreFixtures.withStorePath { path in
            _ = try DiskStore(path: path)
            let readOnly = try SQLiteDatabase(path: path, readOnly: true)
            #expect {
                try readOnly.execute("DELETE FROM images")
            } throws: { error in
                guard case .readOnly? = error as? StoreError else { return false }
                return true
            }
        }
    }

    @Test func aFullDatabaseIsDiskFull() throws {
        try StoreFixtures.withStorePath { path in
            let store = try DiskStore(path: path)
            // A page limit stands in for a full disk.
            let pages = try #require(try store.database.prepare("PRAGMA page_count").query { $0.int64(at: 0) })
            try store.database.execute("PRAGMA max_page_count = \(pages + 2)")
            #expect {
                try store.put(url: StoreFixtures.url(1), bytes: StoreFixtures.image(1, count: 64 * 1024), at: 1)
            } throws: { error in
                guard case .diskFull? = error as? StoreError else { return false }
                return true
            }
            // And nothing partial was stored
            #expect(try store.entries().isEmpty)
        }
    }

    @Test func errorsReadAsOneSentenceNamingTheFile() {
        let errors: [StoreError] = [
            .cannotOpen(path: "/x.sqlite", code: 14, message: "unable to open database file"),
            .notADatabase(path: "/x.sqlite", code: 26, message: "file is not a database"),
            .newerSchema(path: "/x.sqlite", found: 99, supported: 1),
            .diskFull(path: "/x.sqlite", code: 13, message: "database or disk is full"),
            .readOnly(path: "/x.sqlite", code: 8, message: "attempt to write a readonly database"),
            .sqlite(path: "/x.sqlite", code: 1, message: "no such table: t"),
        ]
        for error in errors {
            #expect(error.description.contains("/x.sqlite"))
            #expect(error.description.hasSuffix("."))
        }
        #expect(StoreError(code: 26, message: "m", path: "p") == .notADatabase(path: "p", code: 26, message: "m"))
        #expect(StoreError(code: 13, message: "m", path: "p") == .diskFull(path: "p", code: 13, message: "m"))
        #expect(StoreError(code: 1032, message: "m", path: "p") == .readOnly(path: "p", code: 1032, message: "m"))
    }
}
