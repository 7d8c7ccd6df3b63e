#if canImport(SQLite3)
    import SQLite3  // Apple's SDKs
#else
    import CSQLite  // the system's libsqlite3 (Debian: libsqlite3-dev)
#endif

/// One connection to an SQLite database file, over the C API: WAL journal, `synchronous=NORMAL`,
/// a busy timeout, prepared statements, transactions and the schema version (`user_version`).
///
/// Not `Sendable`: a connection has one owner (the disk tier, inside the image pipeline's actor),
/// and SQLite is opened in multi-thread mode, which allows a connection on any thread but only one
/// thread at a time, which is what an actor guarantees.
final class SQLiteDatabase {
    /// The database file.
    let path: String
    let handle: OpaquePointer

    /// Opens the database at `path`, creating the file if it is missing (unless `readOnly`).
    ///
    /// - Throws: `StoreError.cannotOpen`; `StoreError.notADatabase` when the file is not SQLite.
    init(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        self.path = path
        var connection: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(connection)
            throw StoreError.cannotOpen(path: path, code: code, message: message)
        }
        handle = connection
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        // The first statements read the file's header: a file that is not SQLite fails here.
        if !readOnly { try execute("PRAGMA journal_mode=WAL") }
        try execute("PRAGMA synchronous=NORMAL")
    }

    deinit {
        // `_v2` defers the close until every statement still alive is finalized; statements keep
        // their database alive, so in practice none is.
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that take no parameters, ignoring any rows.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw StoreError(code: code, message: message, path: path)
        }
    }

    /// Compiles `sql` into a statement that can be bound and run many times.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code: code) }
        return SQLiteStatement(handle: statement, database: self)
    }

    /// Runs `body` inside a transaction: commits if it returns, rolls back if it throws.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock up front, so a transaction that writes never fails
    /// halfway with SQLITE_BUSY after reading. Transactions do not nest.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        let result: T
        do {
            result = try body()
        } catch {
            // A failed rollback leaves nothing more to undo: SQLite already rolled back when it
            // reports that no transaction is active.
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }

    /// The schema version stored in the file's header (`PRAGMA user_version`); 0 for a new file.
    func userVersion() throws -> Int {
        let statement = try prepare("PRAGMA user_version")
        return try statement.query { Int($0.int64(at: 0)) } ?? 0
    }

    /// Sets the schema version.
    func setUserVersion(_ version: Int) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    /// The journal mode in effect (`wal` once opened for writing).
    func journalMode() throws -> String {
        try prepare("PRAGMA journal_mode").query { $0.text(at: 0) } ?? ""
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// The error for a result code, with the connection's current message.
    func error(code: Int32) -> StoreError {
        StoreError(code: code, message: lastErrorMessage, path: path)
    }
}
