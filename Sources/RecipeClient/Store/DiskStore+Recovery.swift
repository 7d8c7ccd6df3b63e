#if canImport(SQLite3)
    import SQLite3  // Apple's SDKs
#else
    import CSQLite  // the system's libsqlite3 (Debian: libsqlite3-dev)
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Rebuilding a damaged file: every row that can still be read and verifies is copied into a new
/// file, which then replaces the damaged one. A cache loses what it cannot read and downloads it
/// again; it never serves it, and never fails on it for good.
extension DiskStore {
    /// Runs `body`; when it meets a damaged file, rebuilds the file and runs `body` once more.
    func recovering<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError where error.isDamage {
            try recover()
            return try body()
        }
    }

    /// Rebuilds the open file from what can be read of it, in place.
    func recover() throws {
        let dropped = try Self.salvage(from: database, path: path)
        // The damaged file's connection goes before the file does.
        connection = try Connection.standIn()
        try Self.replace(path)
        connection = try Connection(SQLiteDatabase(path: path))
        nextUse = try connection.nextUse()
        corruptionsFound += dropped
        rebuilds += 1
    }

    /// Throws a damage error unless the URL index holds exactly the rows `urls` lists (by rowid),
    /// each URL once, in order. A key out of order misleads the index's searches: a URL stored
    /// again after its download would be missed for good; a URL twice is a duplicate row. Reads
    /// the index's pages, not the rows.
    func checkIndex(against urls: [Int64: String]) throws {
        var previous: String?
        var keys = 0
        var agrees = Set(urls.values).count == urls.count
        try database.prepare("SELECT url, rowid FROM images INDEXED BY sqlite_autoindex_images_1 ORDER BY url")
            .forEachRow { row in
                let url = row.text(at: 0)
                keys += 1
                // SQLite orders text by its bytes: so must this.
                let ordered = previous.map { $0.utf8.lexicographicallyPrecedes(url.utf8) } ?? true
                agrees = agrees && ordered && urls[row.int64(at: 1)] == url
                previous = url
            }
        guard agrees, keys == urls.count else {
            throw StoreError.sqlite(
                path: path, code: SQLITE_CORRUPT, message: "the URL index disagrees with the stored rows")
        }
    }

    /// Whether `error`, met opening the file at `path`, means an SQLite file of this store that is
    /// damaged (its header's signature intact or nearly so), rather than no store at all, a full
    /// or read-only disk, or a newer build's file.
    static func isDamaged(_ path: String, by error: StoreError) -> Bool {
        switch error {
        case .cannotOpen, .diskFull, .readOnly, .newerSchema: false
        case .notADatabase, .sqlite: signatureMismatches(path).map { $0 <= 4 } ?? false
        }
    }

    /// How many of the first 16 bytes of the file at `path` differ from SQLite's signature
    /// ("SQLite format 3" and a zero byte); nil when it cannot be read.
    static func signatureMismatches(_ path: String) -> Int? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 16)
        guard fread(&header, 1, 16, file) == 16 else { return nil }
        return zip(header, signature).count { $0 != $1 }
    }

    private static let signature = Array("SQLite format 3".utf8) + [0]

    /// Copies every readable, verified row of the store at `path` (read through `source`, or
    /// opened here) into a new file beside it, `path.rebuilding`; returns how many rows it left out.
    static func salvage(from source: SQLiteDatabase?, path: String) throws -> Int {
        let rebuilt = path + ".rebuilding"
        remove(rebuilt)
        var repaired: String?
        defer { if let repaired { remove(repaired) } }
        let reader = source ?? openDamaged(path, repairedCopy: &repaired)
        let fresh = try SQLiteDatabase(path: rebuilt)
        _ = try migrate(fresh)
        guard let reader else { return 0 }
        let keyed = ((try? reader.userVersion()) ?? schemaVersion) >= 6
        var dropped = 0

        // Images: each URL's most recent verified row.
        var images: [String: ImageRow] = [:]
        let readImage = try? reader.prepare(
            "SELECT url, size, checksum, stored_at, last_access, use_seq, pinned, bytes FROM images WHERE rowid = ?1")
        for rowid in rowids(of: "images", in: reader) {
            guard
                let image = try? readImage?.query(
                    .integer(rowid),
                    read: { row in
                        ImageRow(
                            url: row.text(at: 0), size: row.int64(at: 1), checksum: row.int64(at: 2),
                            storedAt: row.int64(at: 3), lastAccess: row.int64(at: 4), lastUse: row.int64(at: 5),
                            pinned: row.int64(at: 6), bytes: row.blob(at: 7))
                    }),
                image.verifies(keyed: keyed)
            else {
                dropped += 1
                continue
            }
            if let kept = images[image.url], kept.lastUse >= image.lastUse {
                dropped += 1
                continue
            }
            if images.updateValue(image, forKey: image.url) != nil { dropped += 1 }
        }
        // Favourites, the last good list and the settings: each verified row.
        var favourites: [(uuid: String, json: [UInt8], checksum: Int64, at: Int64)] = []
        let readFavourite = try? reader.prepare(
            "SELECT uuid, json, checksum, favourited_at FROM favourites WHERE rowid = ?1")
        for rowid in rowids(of: "favourites", in: reader) {
            guard
                let favourite = try? readFavourite?.query(
                    .integer(rowid),
                    read: { row in
                        (row.text(at: 0), row.blob(at: 1), row.int64(at: 2), row.int64(at: 3))
                    }),
                Checksum.stored(favourite.1) == favourite.2
            else {
                dropped += 1
                continue
            }
            favourites.append(favourite)
        }
        let list =
            (try? reader.prepare("SELECT json, checksum, saved_at FROM last_good_list WHERE id = 1")
                .query { row in (row.blob(at: 0), row.int64(at: 1), row.int64(at: 2)) }) ?? nil
        let seed =
            (try? reader.prepare("SELECT value FROM settings WHERE name = 'install_seed'").query {
                $0.int64(at: 0)
            }) ?? nil

        try fresh.transaction {
            let insertImage = try fresh.prepare(
                """
                INSERT INTO images (url, size, checksum, stored_at, last_access, use_seq, pinned, bytes)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """)
            for image in images.values.sorted(by: { $0.lastUse < $1.lastUse }) {
                try insertImage.execute(
                    .text(image.url), .integer(image.size), .integer(Checksum.stored(image.bytes, key: image.url)),
                    .integer(image.storedAt), .integer(image.lastAccess), .integer(image.lastUse),
                    .integer(image.pinned), .blob(image.bytes))
            }
            let insertFavourite = try fresh.prepare(
                "INSERT OR REPLACE INTO favourites (uuid, json, checksum, favourited_at) VALUES (?1, ?2, ?3, ?4)")
            for favourite in favourites {
                try insertFavourite.execute(
                    .text(favourite.uuid), .blob(favourite.json), .integer(favourite.checksum), .integer(favourite.at))
            }
            if let list, Checksum.stored(list.0) == list.1 {
                try fresh.prepare("INSERT INTO last_good_list (id, json, checksum, saved_at) VALUES (1, ?1, ?2, ?3)")
                    .execute(.blob(list.0), .integer(list.1), .integer(list.2))
            }
            if let seed {
                try fresh.prepare("INSERT INTO settings (name, value) VALUES ('install_seed', ?1)").execute(
                    .integer(seed))
            }
        }
        return dropped
    }

    /// One image row as it was read, to be verified and copied.
    private struct ImageRow {
        var url: String
        var size: Int64
        var checksum: Int64
        var storedAt: Int64
        var lastAccess: Int64
        var lastUse: Int64
        var pinned: Int64
        var bytes: [UInt8]

        /// Its length and checksum hold: keyed by its URL (schema 6), or of its bytes alone (a
        /// file damaged before it was migrated to 6).
        func verifies(keyed: Bool) -> Bool {
            Int64(bytes.count) == size
                && checksum == (keyed ? Checksum.stored(bytes, key: url) : Checksum.stored(bytes))
        }
    }

    /// The rowids of `table` that can be read, walking its b-tree from both ends: a damaged page
    /// stops one walk but not the other.
    private static func rowids(of table: String, in database: SQLiteDatabase) -> [Int64] {
        var found = Set<Int64>()
        for order in ["ASC", "DESC"] {
            try? database.prepare("SELECT rowid FROM \(table) ORDER BY rowid \(order)").forEachRow {
                found.insert($0.int64(at: 0))
            }
        }
        return found.sorted()
    }

    /// The damaged file opened for reading, or a copy of it with SQLite's signature restored
    /// (`repairedCopy` names it) when the signature was damaged; nil if neither opens.
    private static func openDamaged(_ path: String, repairedCopy: inout String?) -> SQLiteDatabase? {
        if let database = try? SQLiteDatabase(path: path), (try? database.userVersion()) != nil { return database }
        guard let source = fopen(path, "rb") else { return nil }
        defer { fclose(source) }
        let copy = path + ".repairing"
        remove(copy)
        guard let target = fopen(copy, "wb") else { return nil }
        repairedCopy = copy
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var first = true
        while true {
            let count = fread(&buffer, 1, buffer.count, source)
            if count == 0 { break }
            if first {
                for index in 0..<min(16, count) { buffer[index] = signature[index] }
                first = false
            }
            guard fwrite(buffer, 1, count, target) == count else {
                fclose(target)
                return nil
            }
        }
        fclose(target)
        guard let database = try? SQLiteDatabase(path: copy), (try? database.userVersion()) != nil else { return nil }
        return database
    }

    /// Moves the rebuilt file over the damaged one at `path` (whose journal and shared memory go too).
    static func replace(_ path: String) throws {
        remove(path)
        guard rename(path + ".rebuilding", path) == 0 else {
            throw StoreError.cannotOpen(
                path: path, code: SQLITE_CANTOPEN, message: "cannot move the rebuilt file into place: \(systemError())")
        }
    }

    // Deletes the file at `path` and its journal and shared memory.
    private static func remove(_ path: String) {
        unlink(path)
        unlink(path + "-wal")
        unlink(path + "-shm")
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}

extension StoreError {
    /// The file is damaged (a page, an index, a header no longer what SQLite wrote), as opposed to
    /// a full or read-only disk, a missing file or a lock.
    var isDamage: Bool {
        switch self {
        case .notADatabase: true
        case .sqlite(_, let code, _): [SQLITE_CORRUPT, SQLITE_FORMAT, SQLITE_NOTADB].contains(code & 0xFF)
        default: false
        }
    }
}
