#if canImport(SQLite3)
    import SQLite3  // Apple's SDKs
#else
    import CSQLite  // the system's libsqlite3 (Debian: libsqlite3-dev)
#endif

/// The persistent blob store under the disk tier: image bytes keyed by their full URL, the last
/// good recipe list, the favourite recipes and the install's settings, in one SQLite file (WAL).
///
/// Every blob is stored with its length and a checksum (`Checksum`, XXH64) in the same row,
/// written by one statement, so a row is never partial; an image's checksum covers the URL it was
/// stored under as well as its bytes, and a read compares the row's URL with the one asked for,
/// so a damaged index can never hand one photo's bytes to another URL. The bytes are the row's
/// last column, so that opening the store (sizes, recency, pins) and recording an access never
/// touch the pages that hold an image. A read serves bytes only when all of it matches; a row that
/// does not is deleted, counted in `corruptionsFound`, and read as a miss.
///
/// A file damaged beyond a row (its index, a page's pointers, its header) is rebuilt from what
/// can still be read of it: every row that reads and verifies is copied into a new file, which
/// replaces the old, and the operation that met the damage goes on as a miss (`rebuilds` counts
/// them). A file that is not SQLite at all is refused (`StoreError.notADatabase`), never
/// overwritten.
///
/// Order and capacity are not decided here: `DiskTier` keeps them in a CacheLab engine and tells
/// the store what to delete. Time is an input (`at now:`, milliseconds), never the wall clock.
///
/// Not `Sendable`: one owner, like its `SQLiteDatabase`.
public final class DiskStore {
    /// The schema this build writes and reads, kept in the file's `user_version`.
    public static let schemaVersion = 6

    /// One stored image, as `entries()` lists it.
    public struct Entry: Equatable, Sendable {
        public var url: String
        public var size: Int
        public var lastAccess: Int64
        /// The store's count of accesses (gets and puts) at this entry's last one: recency order,
        /// exact even when accesses share a time.
        public var lastUse: Int64
        public var pinned: Bool
    }

    /// What `verifyAll()` found.
    public struct Verification: Equatable, Sendable {
        /// Rows checked (images and the last good list).
        public var checked: Int
        /// URLs of the image rows that failed and were deleted.
        public var removedURLs: [String]
        /// Whether the last good list failed and was deleted.
        public var removedLastGoodList: Bool
    }

    /// The database file.
    public let path: String
    /// Rows found corrupt (length, checksum or key mismatch) and deleted since this store was
    /// opened, by a migration or a rebuild included.
    public internal(set) var corruptionsFound = 0
    /// Times the file was found damaged beyond a row and rebuilt from what could be read of it,
    /// since this store was opened.
    public internal(set) var rebuilds = 0

    /// The open file and its prepared statements; replaced when the file is rebuilt
    /// (`DiskStore+Recovery`).
    var connection: Connection
    var database: SQLiteDatabase { connection.database }
    // The next value of `use_seq`: one more than any stored.
    var nextUse: Int64

    /// Opens the store at `path`, creating the file and its schema if missing, and rebuilding it
    /// if it is an SQLite file too damaged to open.
    ///
    /// - Throws: `StoreError.notADatabase` for a file that is not SQLite, `StoreError.newerSchema`
    ///   for a file from a newer build, or another `StoreError`.
    public init(path: String) throws {
        self.path = path
        do {
            let database = try SQLiteDatabase(path: path)
            corruptionsFound = try Self.migrate(database)
            connection = try Connection(database)
            nextUse = try connection.nextUse()
        } catch let error as StoreError where Self.isDamaged(path, by: error) {
            let dropped = try Self.salvage(from: nil, path: path)
            try Self.replace(path)
            connection = try Connection(SQLiteDatabase(path: path))
            nextUse = try connection.nextUse()
            corruptionsFound = dropped
            rebuilds = 1
        }
    }

    /// The open database and the statements the store runs on it.
    final class Connection {
        let database: SQLiteDatabase
        let insertImage: SQLiteStatement
        let selectImage: SQLiteStatement
        let touchImage: SQLiteStatement
        let deleteImage: SQLiteStatement
        let deleteRow: SQLiteStatement
        let updatePinned: SQLiteStatement
        let selectEntries: SQLiteStatement
        let sumSizes: SQLiteStatement

        init(_ database: SQLiteDatabase) throws {
            self.database = database
            insertImage = try database.prepare(
                """
                INSERT INTO images (url, bytes, size, checksum, stored_at, last_access, use_seq)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)
                ON CONFLICT (url) DO UPDATE SET bytes = excluded.bytes, size = excluded.size,
                    checksum = excluded.checksum, stored_at = excluded.stored_at, last_access = excluded.last_access,
                    use_seq = excluded.use_seq
                """)
            selectImage = try database.prepare("SELECT rowid, url, bytes, size, checksum FROM images WHERE url = ?1")
            touchImage = try database.prepare("UPDATE images SET last_access = ?2, use_seq = ?3 WHERE url = ?1")
            deleteImage = try database.prepare("DELETE FROM images WHERE url = ?1")
            deleteRow = try database.prepare("DELETE FROM images WHERE rowid = ?1")
            updatePinned = try database.prepare("UPDATE images SET pinned = ?2 WHERE url = ?1")
            selectEntries = try database.prepare(
                "SELECT url, size, last_access, use_seq, pinned, rowid FROM images ORDER BY use_seq, rowid")
            sumSizes = try database.prepare("SELECT COALESCE(SUM(size), 0) FROM images")
        }

        /// An in-memory stand-in, held while the file is replaced.
        static func standIn() throws -> Connection {
            let database = try SQLiteDatabase(path: ":memory:")
            _ = try DiskStore.migrate(database)
            return try Connection(database)
        }

        func nextUse() throws -> Int64 {
            try database.prepare("SELECT COALESCE(MAX(use_seq), 0) + 1 FROM images").query { $0.int64(at: 0) } ?? 1
        }
    }

    // Version 0 is a new file: create the schema. Each later version adds one step here. Returns
    // the rows found corrupt on the way (and deleted).
    static func migrate(_ database: SQLiteDatabase) throws -> Int {
        let found = try database.userVersion()
        guard found != schemaVersion else { return 0 }
        // The version is kept twice: in the header and in the settings table. A header that
        // disagrees with a schema exactly this build's and a settings row naming this build's
        // version was damaged (a byte of the first page): set it right. A newer build writes both.
        let schema = try schema(of: database)
        if !schema.isEmpty, schema == currentSchema, try recordedVersion(in: database) == schemaVersion {
            try database.setUserVersion(schemaVersion)
            return 0  // no row was lost
        }
        guard found <= schemaVersion else {
            throw StoreError.newerSchema(path: database.path, found: found, supported: schemaVersion)
        }
        return try database.transaction {
            var corrupt = 0
            if found < 1 {
                try database.execute(
                    """
                    CREATE TABLE images (
                        url TEXT PRIMARY KEY,
                        bytes BLOB NOT NULL,
                        size INTEGER NOT NULL,
                        checksum INTEGER NOT NULL,
                        stored_at INTEGER,
                        last_access INTEGER,
                        pinned INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE last_good_list (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        json BLOB NOT NULL,
                        checksum INTEGER NOT NULL,
                        saved_at INTEGER
                    );
                    """)
            }
            if found < 2 {
                // Version 2 orders recency by a count of accesses, not by time alone: accesses in
                // the same millisecond keep their order. Version 1 rows are numbered in the order
                // version 1 rebuilt them (last access, then insertion).
                try database.execute(
                    """
                    ALTER TABLE images ADD COLUMN use_seq INTEGER NOT NULL DEFAULT 0;
                    UPDATE images SET use_seq = (
                        SELECT COUNT(*) FROM images AS other
                        WHERE (other.last_access, other.rowid) <= (images.last_access, images.rowid));
                    """)
            }
            if found < 3 {
                // Version 3 keeps favourite recipes (as received, checksummed like every blob) and
                // the install's settings (the retry jitter's seed).
                try database.execute(
                    """
                    CREATE TABLE favourites (
                        uuid TEXT PRIMARY KEY,
                        json BLOB NOT NULL,
                        checksum INTEGER NOT NULL,
                        favourited_at INTEGER NOT NULL
                    );
                    CREATE TABLE settings (
                        name TEXT PRIMARY KEY,
                        value INTEGER NOT NULL
                    );
                    """)
            }
            if (1..<4).contains(found) {
                // Version 4 checksums with XXH64, eight bytes at a time, not FNV-1a, one. Each row
                // an earlier version wrote is checked against its FNV-1a once, here: one that
                // passes gets its XXH64, one that fails is deleted (and would have been read as a
                // miss). No row is ever served unchecked.
                for (table, column) in [("images", "bytes"), ("last_good_list", "json"), ("favourites", "json")] {
                    corrupt += try rechecksum(table: table, column: column, in: database)
                }
            }
            if found < 5 {
                // Version 5 keeps an image's bytes in its row's last column. SQLite lays a row's
                // columns out in order and those past a large blob in its overflow pages: opening
                // the store (each entry's size, recency and pin) read every image's bytes, and
                // recording an access rewrote the page at the end of its blob. The table is
                // rebuilt with its rows as they were: rowids, checksums and order.
                try database.execute(
                    """
                    CREATE TABLE images_v5 (
                        url TEXT PRIMARY KEY,
                        size INTEGER NOT NULL,
                        checksum INTEGER NOT NULL,
                        stored_at INTEGER,
                        last_access INTEGER,
                        use_seq INTEGER NOT NULL DEFAULT 0,
                        pinned INTEGER NOT NULL DEFAULT 0,
                        bytes BLOB NOT NULL
                    );
                    INSERT INTO images_v5 (rowid, url, size, checksum, stored_at, last_access, use_seq, pinned, bytes)
                        SELECT rowid, url, size, checksum, stored_at, last_access, use_seq, pinned, bytes FROM images;
                    DROP TABLE images;
                    ALTER TABLE images_v5 RENAME TO images;
                    """)
            }
            if (1..<6).contains(found) {
                // Version 6 checksums an image under its URL (`Checksum.stored(_:key:)`), so a row
                // serves only the URL it was stored under. Each row is checked against its bytes'
                // checksum once, here: one that passes gets its keyed checksum, one that fails is
                // deleted.
                corrupt += try keyChecksums(in: database)
            }
            try database.prepare("INSERT OR REPLACE INTO settings (name, value) VALUES ('schema_version', ?1)")
                .execute(.integer(Int64(schemaVersion)))
            try database.setUserVersion(schemaVersion)
            return corrupt
        }
    }

    /// The schema version the settings table records, the header's second copy.
    static func recordedVersion(in database: SQLiteDatabase) throws -> Int? {
        try database.prepare("SELECT value FROM settings WHERE name = 'schema_version'").query { Int($0.int64(at: 0)) }
    }

    /// The SQL of a database's tables and indexes, in name order.
    private static func schema(of database: SQLiteDatabase) throws -> [String] {
        var sql: [String] = []
        try database.prepare("SELECT name || ': ' || COALESCE(sql, '') FROM sqlite_master ORDER BY name").forEachRow {
            sql.append($0.text(at: 0))
        }
        return sql
    }

    /// The schema this build makes, as `schema(of:)` reads it.
    private static let currentSchema: [String] = {
        // An in-memory database migrated from nothing cannot fail.
        let database = try! SQLiteDatabase(path: ":memory:")
        _ = try! migrate(database)
        return try! schema(of: database)
    }()

    // Gives each image row whose checksum holds its keyed checksum and deletes the others; returns
    // how many it deleted.
    private static func keyChecksums(in database: SQLiteDatabase) throws -> Int {
        try rewriteChecksums(in: "images", reading: "url, bytes, checksum", database) { row in
            let bytes = row.blob(at: 2)
            return Checksum.stored(bytes) == row.int64(at: 3) ? Checksum.stored(bytes, key: row.text(at: 1)) : nil
        }
    }

    // Gives each row of `table` whose FNV-1a checksum holds its XXH64 and deletes the others;
    // returns how many it deleted.
    private static func rechecksum(table: String, column: String, in database: SQLiteDatabase) throws -> Int {
        try rewriteChecksums(in: table, reading: "\(column), checksum", database) { row in
            let bytes = row.blob(at: 1)
            let intact = bytes.withUnsafeBytes { Int64(bitPattern: Checksum.legacyFNV1a($0)) } == row.int64(at: 2)
            return intact ? Checksum.stored(bytes) : nil
        }
    }

    // Reads `rowid, columns` of every row of `table`; gives each row the checksum `verified`
    // returns for it, or deletes it when that is nil. Returns how many it deleted.
    private static func rewriteChecksums(
        in table: String, reading columns: String, _ database: SQLiteDatabase,
        _ verified: (SQLiteStatement) -> Int64?
    ) throws -> Int {
        var verdicts: [(rowid: Int64, checksum: Int64?)] = []
        try database.prepare("SELECT rowid, \(columns) FROM \(table)").forEachRow { row in
            verdicts.append((row.int64(at: 0), verified(row)))
        }
        let update = try database.prepare("UPDATE \(table) SET checksum = ?2 WHERE rowid = ?1")
        let delete = try database.prepare("DELETE FROM \(table) WHERE rowid = ?1")
        for verdict in verdicts {
            if let checksum = verdict.checksum {
                try update.execute(.integer(verdict.rowid), .integer(checksum))
            } else {
                try delete.execute(.integer(verdict.rowid))
            }
        }
        return verdicts.count { $0.checksum == nil }
    }

    // MARK: Images

    /// Stores `bytes` under `url` (replacing any earlier row, keeping its pin) in one statement,
    /// after deleting the rows for `removing` (the entries evicted to make room) in the same
    /// transaction. The caller passes complete images only: the store cannot tell a truncated body
    /// from a short image.
    public func put(url: String, bytes: [UInt8], at now: Int64, removing victims: [String] = []) throws {
        try recovering {
            guard !victims.isEmpty else { return try insert(url: url, bytes: bytes, at: now) }
            try database.transaction {
                for victim in victims { try connection.deleteImage.execute(.text(victim)) }
                try insert(url: url, bytes: bytes, at: now)
            }
        }
    }

    private func insert(url: String, bytes: [UInt8], at now: Int64) throws {
        try connection.insertImage.execute(
            .text(url), .blob(bytes), .integer(Int64(bytes.count)), .integer(Checksum.stored(bytes, key: url)),
            .integer(now), .integer(takeUse()))
    }

    /// The bytes stored under `url` if the row is the one stored under it and its length and
    /// checksum match, recording the access at `now` (unless the disk is full or read-only); `nil`
    /// if absent. A row that fails the check is deleted and `nil` returned; a file damaged beyond
    /// the row is rebuilt and the lookup made again in the rebuilt file.
    public func get(url: String, at now: Int64) throws -> [UInt8]? {
        try recovering { try lookUp(url, at: now) }
    }

    // One lookup: `get` without the rebuild. Throws a damage error when the URL index led to
    // another URL's row, or SQLite found a page damaged.
    private func lookUp(_ url: String, at now: Int64) throws -> [UInt8]? {
        let row = try connection.selectImage.query(.text(url)) { row in
            (
                rowid: row.int64(at: 0), url: row.text(at: 1), bytes: row.blob(at: 2), size: row.int64(at: 3),
                checksum: row.int64(at: 4)
            )
        }
        guard let row else { return nil }
        guard row.url == url else {
            throw StoreError.sqlite(
                path: path, code: SQLITE_CORRUPT, message: "the URL index led \(url) to another URL's row")
        }
        guard Self.isIntact(row.bytes, key: url, size: row.size, checksum: row.checksum) else {
            try connection.deleteRow.execute(.integer(row.rowid))
            corruptionsFound += 1
            return nil
        }
        do {
            try connection.touchImage.execute(.text(url), .integer(now), .integer(takeUse()))
        } catch let error as StoreError where error.refusesWrites {
            // A full or read-only disk still serves what it holds; only this use goes unrecorded.
        }
        return row.bytes
    }

    private func takeUse() -> Int64 {
        defer { nextUse += 1 }
        return nextUse
    }

    /// Deletes the row for `url`, if any.
    public func remove(url: String) throws {
        try recovering { try connection.deleteImage.execute(.text(url)) }
    }

    /// Deletes the rows for `urls` in one transaction.
    public func remove(urls: [String]) throws {
        guard !urls.isEmpty else { return }
        if urls.count == 1 { return try remove(url: urls[0]) }
        try recovering {
            try database.transaction {
                for url in urls { try connection.deleteImage.execute(.text(url)) }
            }
        }
    }

    /// Marks the row for `url` pinned or not, and, given `now`, records a use of it then (an
    /// unpinned entry re-enters the order as used). Returns `false` if there is no such row.
    @discardableResult
    public func setPinned(url: String, _ pinned: Bool, at now: Int64? = nil) throws -> Bool {
        try recovering {
            if let now {
                try connection.touchImage.execute(.text(url), .integer(now), .integer(takeUse()))
            }
            try connection.updatePinned.execute(.text(url), .integer(pinned ? 1 : 0))
            return database.changes > 0
        }
    }

    /// Every stored image, least recently accessed first: the order to rebuild an eviction policy
    /// in at open. A file listing one URL twice (a damaged index let a second row in) is rebuilt
    /// first, keeping each URL's most recent row.
    public func entries() throws -> [Entry] {
        try recovering {
            var result: [Entry] = []
            var urls: [Int64: String] = [:]
            try connection.selectEntries.forEachRow { row in
                let url = row.text(at: 0)
                result.append(
                    Entry(
                        url: url, size: Int(row.int64(at: 1)), lastAccess: row.int64(at: 2),
                        lastUse: row.int64(at: 3), pinned: row.int64(at: 4) != 0))
                urls[row.int64(at: 5)] = url
            }
            // Every row is listed once, so the index is checked against them here, where the
            // disk tier opens: a damaged one would lose URLs for good.
            try checkIndex(against: urls)
            return result
        }
    }

    /// The sum of the stored images' sizes, pinned ones included.
    public func totalBytes() throws -> Int {
        try recovering { try Int(connection.sumSizes.query { $0.int64(at: 0) } ?? 0) }
    }

    /// Reads every row and checks its length and checksum, deleting those that fail (counted in
    /// `corruptionsFound`). Reads every byte stored: for tests and recovery, not for every launch.
    @discardableResult
    public func verifyAll() throws -> Verification {
        var (checked, corrupt) = try recovering {
            var checked = 0
            var corrupt: [String] = []
            try database.prepare("SELECT url, bytes, size, checksum FROM images").forEachRow { row in
                checked += 1
                let url = row.text(at: 0)
                if !Self.isIntact(row.blob(at: 1), key: url, size: row.int64(at: 2), checksum: row.int64(at: 3)) {
                    corrupt.append(url)
                }
            }
            return (checked, corrupt)
        }
        try remove(urls: corrupt)
        corruptionsFound += corrupt.count
        var removedList = false
        if try hasLastGoodList() {
            checked += 1
            removedList = try loadLastGoodList() == nil
        }
        return Verification(checked: checked, removedURLs: corrupt, removedLastGoodList: removedList)
    }

    // MARK: Last good list

    /// Saves the last recipe list that decoded, replacing the previous one, in one statement.
    public func saveLastGoodList(_ json: [UInt8], at now: Int64) throws {
        try database.prepare(
            "INSERT OR REPLACE INTO last_good_list (id, json, checksum, saved_at) VALUES (1, ?1, ?2, ?3)"
        ).execute(.blob(json), .integer(Checksum.stored(json)), .integer(now))
    }

    /// The last good list, or `nil` if none was saved. A list that fails its checksum is deleted
    /// (counted in `corruptionsFound`) and `nil` returned.
    public func loadLastGoodList() throws -> [UInt8]? {
        let row = try database.prepare("SELECT json, checksum FROM last_good_list WHERE id = 1").query { row in
            (json: row.blob(at: 0), checksum: row.int64(at: 1))
        }
        guard let row else { return nil }
        guard Checksum.stored(row.json) == row.checksum else {
            try database.execute("DELETE FROM last_good_list")
            corruptionsFound += 1
            return nil
        }
        return row.json
    }

    private func hasLastGoodList() throws -> Bool {
        try database.prepare("SELECT 1 FROM last_good_list").query { _ in true } ?? false
    }

    /// When the last good list was saved, or nil if none is.
    public func lastGoodListSavedAt() throws -> Int64? {
        try database.prepare("SELECT saved_at FROM last_good_list WHERE id = 1").query { $0.int64(at: 0) }
    }

    // MARK: Favourites

    /// The favourites, oldest first. A row that fails its checksum is deleted (counted in
    /// `corruptionsFound`) and left out.
    public func loadFavourites() throws -> [StoredFavourite] {
        var result: [StoredFavourite] = []
        var corrupt: [String] = []
        try database.prepare(
            "SELECT uuid, json, checksum, favourited_at FROM favourites ORDER BY favourited_at, rowid"
        ).forEachRow { row in
            let json = row.blob(at: 1)
            if Checksum.stored(json) == row.int64(at: 2) {
                result.append(StoredFavourite(uuid: row.text(at: 0), json: json, favouritedAt: row.int64(at: 3)))
            } else {
                corrupt.append(row.text(at: 0))
            }
        }
        for uuid in corrupt { try removeFavourite(uuid: uuid) }
        corruptionsFound += corrupt.count
        return result
    }

    /// Saves a favourite in one statement, replacing one with the same uuid.
    public func saveFavourite(_ favourite: StoredFavourite) throws {
        try database.prepare(
            "INSERT OR REPLACE INTO favourites (uuid, json, checksum, favourited_at) VALUES (?1, ?2, ?3, ?4)"
        ).execute(
            .text(favourite.uuid), .blob(favourite.json), .integer(Checksum.stored(favourite.json)),
            .integer(favourite.favouritedAt))
    }

    /// Deletes the favourite with `uuid`, if any.
    public func removeFavourite(uuid: String) throws {
        try database.prepare("DELETE FROM favourites WHERE uuid = ?1").execute(.text(uuid))
    }

    // MARK: Settings

    /// This install's seed for the retry jitter: drawn from the system's generator the first time
    /// and kept, so one install waits the same delays every launch and two installs differ.
    public func installSeed() throws -> UInt64 {
        let read = try database.prepare("SELECT value FROM settings WHERE name = 'install_seed'")
        if let seed = try read.query(read: { $0.int64(at: 0) }) { return UInt64(bitPattern: seed) }
        let seed = UInt64.random(in: .min ... .max)
        try database.prepare("INSERT INTO settings (name, value) VALUES ('install_seed', ?1)").execute(
            .integer(Int64(bitPattern: seed)))
        return seed
    }

    private static func isIntact(_ bytes: [UInt8], key: String, size: Int64, checksum: Int64) -> Bool {
        Int64(bytes.count) == size && Checksum.stored(bytes, key: key) == checksum
    }
}
