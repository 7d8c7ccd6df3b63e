import Testing

@testable import RecipeClient

@Suite("DiskStore")
struct DiskStoreTests {
    @Test func putThenGetReturnsTheSameBytes() throws {
        try StoreFixtures.withStorePath { path in
            let store = try DiskStore(path: path)
            let bytes = StoreFixtures.image(1, count: 10_000)
            try store.put(url: StoreFixtures.url(1), bytes: bytes, at: 10)
            #expect(try store.get(url: StoreFixtures.url(1), at: 20) == bytes)
            #expect(try store.get(url: StoreFixtures.url(2), at: 20) == nil)
            #expect(try store.totalBytes() == 10_000)
            #expect(
                try store.entries()
                    == [
                        DiskStore.Entry(
                            url: StoreFixtures.url(1), size: 10_000, lastAccess: 20, lastUse: 2, pinned: false)
                    ])
        }
    }

    @Test func anEmptyImageRoundTrips() throws {
        try StoreFixtures.withStorePath { path in
            let store = try DiskStore(path: path)
            try store.put(url: StoreFixtures.url(1), bytes: [], at: 1)
            #expect(try store.get(url: StoreFixtures.url(1), at: 2) == [])
        }
    }

    @Test func survivesCloseAndReopen() throws {
        try StoreFixtures.withStorePath { path in
            do {
                let store = try DiskStore(path: path)
                try store.put(url: StoreFixtures.url(1), bytes: StoreFixtures.image(1), at: 1)
                try store.setPinned(url: StoreFixtures.url(1), true)
            }
            let reopened = try DiskStore(path: path)
            #expect(try reopened.get(url: StoreFixtures.url(1), at: 2) == StoreFixtures.image(1))
            #expect(try reopened.entries().map(\.pinned) == [true])
        }
    }

    @Test func replacingAnImageKeepsItsPin() throws {
        try StoreFixtures.withStorePath { path in
            let store = try DiskStore(path: path)
            try store.put(url: StoreFixtures.url(1), bytes: StoreFixtures.image(1), at: 1)
            #expect(try store.setPinned(url: StoreFixtures.url(1), true))
            try store.put(url: StoreFixtures.url(1), bytes: StoreFixtures.image(2, count: 50), at: 2)
            #expect(
                try store.entries()
                    == [DiskStore.Entry(url: StoreFixtures.url(1), size: 50, lastAccess: 2, lastUse: 2, pinned: true)])
            #expect(try store.setPinned(url: StoreFixtures.url(9), true) == false)
        }
    }

    @Test func accessesInTheSameMillisecondKeepTheirOrder() throws {
        try StoreFixtures.withStorePath { path in
            do {
                let store = try DiskStore(path: path)
                for id in 1...3 {
                    try store.put(url: StoreFixtures.url(id), bytes: StoreFixtures.image(UInt64(id)), at: 5)
                }
                _ = try store.get(url: StoreFixtures.url(1), at: 5)
                #expect(try store.entries().map(\.url) == [2, 3, 1].map(StoreFixtures.url))
            }
            // The count goes on after a reopen.
            let reopened = try DiskStore(path: path)
            _ = try reopened.get(url: StoreFixtures.url(2), at: 5)
            #expect(try reopened.entries().map(\.url) == [3, 1, 2].map(StoreFixtures.url))
        }
    }

    @Test func aVersionOneFileIsMigratedInItsRebuildOrder() throws {
        try StoreFixtures.withStorePath { path in
            do {
                let database = try SQLiteDatabase(path: path)
                try database.execute(
                    """
                    CREATE TABLE images (url TEXT PRIMARY KEY, bytes BLOB NOT NULL, size INTEGER NOT NULL,
                        checksum INTEGER NOT NULL, stored_at INTEGER, last_access INTEGER,
                        pinned INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE last_good_list (id INTEGER PRIMARY KEY CHECK (id = 1), json BLOB NOT NULL,
                        checksum INTEGER NOT NULL, saved_at INTEGER);
                    INSERT INTO images VALUES ('a', x'01', 1, \(Self.legacyChecksum([1])), 1, 30, 0);
                    INSERT INTO images VALUES ('b', x'01', 1, \(Self.legacyChecksum([1])), 1, 10, 0);
                    INSERT INTO images VALUES ('c', x'01', 1, \(Self.legacyChecksum([1])), 1, 10, 0);
                    """)
                try database.setUserVersion(1)
            }
            let store = try DiskStore(path: path)
            #expect(try store.entries().map(\.url) == ["b", "c", "a"])
            #expect(try store.entries().map(\.lastUse) == [1, 2, 3])
            #expect(try store.get(url: "b", at: 40) == [1])
            #expect(try store.entries().map(\.url) == ["c", "a", "b"])
        }
    }

    /// The tables as schemas 3 and 4 made them (4 changed the checksums, not the tables): each
    /// image's bytes in the second column.
    static let tablesOfSchemasThreeAndFour = """
        CREATE TABLE images (url TEXT PRIMARY KEY, bytes BLOB NOT NULL, size INTEGER NOT NULL,
            checksum INTEGER NOT NULL, stored_at INTEGER, last_access INTEGER,
            pinned INTEGER NOT NULL DEFAULT 0, use_seq INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE last_good_list (id INTEGER PRIMARY KEY CHECK (id = 1), json BLOB NOT NULL,
            checksum INTEGER NOT NULL, saved_at INTEGER);
        CREATE TABLE favourites (uuid TEXT PRIMARY KEY, json BLOB NOT NULL, checksum INTEGER NOT NULL,
            favourited_at INTEGER NOT NULL);
        CREATE TABLE settings (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        """

    /// A checksum as schemas 1 to 3 stored it (FNV-1a).
    static func legacyChecksum(_ bytes: [UInt8]) -> Int64 {
        Int64(bitPattern: bytes.withUnsafeBytes { Checksum.legacyFNV1a($0) })
    }

    @Test func aVersionThreeFileIsRechecksummedAndItsCorruptRowsRemoved() throws {
        try StoreFixtures.withStorePath { path in
            // Given a file as schema 3 left it: FNV-1a checksums, one image row damaged since
            let good = StoreFixtures.image(1, count: 5_000)
            let list = Array(#"{"recipes":[]}"#.utf8)
            let favourite = Array(#"{"uuid":"f"}"#.utf8)
            do {
                let database = try SQLiteDatabase(path: path)
                try database.execute(Self.tablesOfSchemasThreeAndFour)
                let insert = try database.prepare("INSERT INTO images VALUES (?1, ?2, ?3, ?4, 1, 1, ?5, ?6)")
                try insert.execute(
                    .text("good"), .blob(good), .integer(5_000), .integer(Self.legacyChecksum(good)), .integer(1),
                    .integer(1))
                var damaged = good
                damaged[10] ^= 0x40
                try insert.execute(
                    .text("damaged"), .blob(damaged), .integer(5_000), .integer(Self.legacyChecksum(good)),
                    .integer(0), .integer(2))
                try database.prepare("INSERT INTO last_good_list VALUES (1, ?1, ?2, 7)").execute(
                    .blob(list), .integer(Self.legacyChecksum(list)))
                try database.prepare("INSERT INTO favourites VALUES ('f', ?1, ?2, 8)").execute(
                    .blob(favourite), .integer(Self.legacyChecksum(favourite)))
                try database.setUserVersion(3)
            }

            // When this build opens it
            let store = try DiskStore(path: path)

            // Then the intact rows carry XXH64 and are served; the damaged one is gone, counted
            #expect(try SQLiteDatabase(path: path).userVersion() == DiskStore.schemaVersion)
            #expect(store.corruptionsFound == 1)
            #expect(try store.entries().map(\.url) == ["good"])
            #expect(try store.entries().map(\.pinned) == [true])
            #expect(try store.get(url: "good", at: 2) == good)
            #expect(try store.loadLastGoodList() == list)
            #expect(try store.loadFavourites().map(\.json) == [favourite])
            #expect(try store.verifyAll().removedURLs.isEmpty)
            #expect(store.corruptionsFound == 1)
        }
    }

    @Test func aVersionFourFileKeepsItsRowsWithTheBytesMovedToTheLastColumn() throws {
        try StoreFixtures.withStorePath { path in
            // Given a file as schema 4 left it: each image's bytes before its size, recency and pin
            let first = StoreFixtures.image(1, count: 20_000)
            let second = StoreFixtures.image(2, count: 30_000)
            do {
                let database = try SQLiteDatabase(path: path)
                try database.execute(Self.tablesOfSchemasThreeAndFour)
                let insert = try database.prepare("INSERT INTO images VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7)")
                try insert.execute(
                    .text("first"), .blob(first), .integer(20_000), .integer(Checksum.stored(first)), .integer(9),
                    .integer(1), .integer(2))
                try insert.execute(
                    .text("second"), .blob(second), .integer(30_000), .integer(Checksum.stored(second)),
                    .integer(5), .integer(0), .integer(1))
                try database.setUserVersion(4)
            }

            // When this build opens it
            let store = try DiskStore(path: path)

            // Then every row is there as it was, in its order, pinned as it was, and served
            #expect(try SQLiteDatabase(path: path).userVersion() == DiskStore.schemaVersion)
            #expect(store.corruptionsFound == 0)
            #expect(try store.entries().map(\.url) == ["second", "first"])
            #expect(try store.entries().map(\.pinned) == [false, true])
            #expect(try store.entries().map(\.lastAccess) == [5, 9])
            #expect(try store.get(url: "first", at: 10) == first)
            #expect(try store.get(url: "second", at: 11) == second)
            #expect(try store.verifyAll().removedURLs.isEmpty)
            // And the bytes are the row's last column, past everything opening the store reads
            var columns: [String] = []
            try store.database.prepare("PRAGMA table_info(images)").forEachRow { columns.append($0.text(at: 1)) }
            #expect(columns.last == "bytes")
            #expect(
                Set(columns) == ["url", "size", "checksum", "stored_at", "last_access", "use_seq", "pinned", "bytes"])
        }
    }

    @Test func entriesAreOrderedByLastAccess() throws {
        try StoreFixtures.withStorePath { path in
            let store = try DiskStore(path: path)
            for number in 1...3 { try store.put(url: StoreFixtures.url(number), bytes: [1], at: Int64(number)) }
            _ = try store.get(url: StoreFixtures.url(1), at: 10)
            #expect(try store.entries().map(\.url) == [2, 3, 1].map(StoreFixtures.url))
        }
    }

    @Test(arguments: ["same length, one byte flipped", "truncated"])
    func aCorruptRowIsNotServedAndIsRemoved(damage: String) throws {
        try StoreFixtures.withStorePath { path in
            // Given a stored image whose bytes are changed behind the store's back
            let store = try DiskStore(path: path)
            var bytes = StoreFixtures.image(1)
            try store.put(url: StoreFixtures.url(1), bytes: bytes, at: 1)
            if damage == "truncated" { bytes.removeLast(10) } else { bytes[50] ^= 0x01 }
            try StoreFixtures.corrupt(path: path, url: StoreFixtures.url(1), bytes: bytes)
            // When it is read, then it is a miss, counted, and the row is gone
            #expect(try store.get(url: StoreFixtures.url(1), at: 2) == nil)
            #expect(store.corruptionsFound == 1)
            #expect(try store.entries().isEmpty)
        }
    }

    @Test func aRowUnderAnotherURLIsNotServedAndTheURLLoadsAgain() throws {
        try StoreFixtures.withStorePath { path in
            // Given two photos whose rows have swapped URLs behind the store's back (as a damaged
            // index or row header can make them), with their own bytes and checksums
            let store = try DiskStore(path: path)
            for number in 1...2 {
                try store.put(url: StoreFixtures.url(number), bytes: StoreFixtures.image(UInt64(number)), at: 1)
            }
            let database = try SQLiteDatabase(path: path)
            try database.execute(
                "UPDATE images SET url = CASE url WHEN '\(StoreFixtures.url(1))' THEN 'swap' ELSE url END")
            try database.execute(
                "UPDATE images SET url = '\(StoreFixtures.url(1))' WHERE url = '\(StoreFixtures.url(2))'")
            try database.execute("UPDATE images SET url = '\(StoreFixtures.url(2))' WHERE url = 'swap'")

            // When each URL is read, then neither serves the other's photo: both miss, counted
            for number in 1...2 {
                #expect(try store.get(url: StoreFixtures.url(number), at: 2) == nil)
            }
            #expect(store.corruptionsFound == 2)
            // And each loads again once downloaded
            try store.put(url: StoreFixtures.url(1), bytes: StoreFixtures.image(1), at: 3)
            #expect(try store.get(url: StoreFixtures.url(1), at: 4) == StoreFixtures.image(1))
        }
    }

    @Test func aDamagedVersionInTheHeaderIsSetRightAndTheImagesKept() throws {
        try StoreFixtures.withStorePath { path in
            // Given a store whose header's version a flipped byte has changed (the settings table
            // still records this build's)
            do {
                let store = try DiskStore(path: path)
                try store.put(url: StoreFixtures.url(1), bytes: StoreFixtures.image(1), at: 1)
            }
            try SQLiteDatabase(path: path).setUserVersion(DiskStore.schemaVersion | 0x4000)
            // When it is opened, then it is this build's store again, with its image
            let store = try DiskStore(path: path)
            #expect(try SQLiteDatabase(path: path).userVersion() == DiskStore.schemaVersion)
            #expect(try store.get(url: StoreFixtures.url(1), at: 2) == StoreFixtures.image(1))
        }
    }

    @Test func verifyAllRemovesEveryCorruptRowAndKeepsTheRest() throws {
        try StoreFixtures.withStorePath { path in
            let store = try DiskStore(path: path)
            for number in 1...5 {
                try store.put(url: StoreFixtures.url(number), bytes: StoreFixtures.image(UInt64(number)), at: 1)
            }
            try store.saveLastGoodList(Array("[]".utf8), at: 1)
            try StoreFixtures.corrupt(path: path, url: StoreFixtures.url(2), bytes: [1, 2, 3])
            try StoreFixtures.corrupt(path: path, url: StoreFixtures.url(4), bytes: StoreFixtures.image(40))
            let verification = try store.verifyAll()
            #expect(verification.checked == 6)
            #expect(Set(verification.removedURLs) == Set([2, 4].map(StoreFixtures.url)))
            #expect(verification.removedLastGoodList == false)
            #expect(try store.entries().map(\.url).sorted() == [1, 3, 5].map(StoreFixtures.url).sorted())
        }
    }

    @Test func lastGoodListSavesLoadsAndSurvivesReopen() throws {
        try StoreFixtures.withStorePath { path in
            let json = Array(#"{"recipes":[]}"#.utf8)
            do {
                let store = try DiskStore(path: path)
                #expect(try store.loadLastGoodList() == nil)
                try store.saveLastGoodList(Array("old".utf8), at: 1)
                try store.saveLastGoodList(json, at: 2)
            }
            #expect(try DiskStore(path: path).loadLastGoodList() == json)
        }
    }

    @Test func aCorruptLastGoodListIsNotServed() throws {
        try StoreFixtures.withStorePath { path in
            let store = try DiskStore(path: path)
            try store.saveLastGoodList(Array(#"{"recipes":[]}"#.utf8), at: 1)
            try SQLiteDatabase(path: path).execute("UPDATE last_good_list SET json = X'7B7D'")
            #expect(try store.loadLastGoodList() == nil)
            #expect(store.corruptionsFound == 1)
            #expect(try store.loadLastGoodList() == nil)
        }
    }
}
