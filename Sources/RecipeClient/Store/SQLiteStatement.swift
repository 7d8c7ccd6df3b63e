#if canImport(SQLite3)
    import SQLite3  // Apple's SDKs
#else
    import CSQLite  // the system's libsqlite3 (Debian: libsqlite3-dev)
#endif

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null
}

/// A prepared statement: bind parameters (1-based), step through rows, read columns (0-based).
///
/// `execute` and `query` reset the statement before and after they run, so a statement kept for
/// reuse never holds a read transaction open between calls (which would stop WAL checkpoints).
final class SQLiteStatement {
    private let handle: OpaquePointer
    // Keeps the connection open for as long as the statement lives.
    private let database: SQLiteDatabase

    init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to parameters 1, 2, ... after clearing earlier bindings.
    func bind(_ values: [SQLiteValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    func bind(_ value: SQLiteValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .integer(let number):
            code = sqlite3_bind_int64(handle, index, number)
        case .text(let string):
            code = sqlite3_bind_text(handle, index, string, -1, transientDestructor)
        case .blob(let bytes):
            // An empty array has no base address, and a NULL pointer would bind NULL, not an
            // empty blob: bind a zero-length blob explicitly.
            code = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, !buffer.isEmpty else {
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return sqlite3_bind_blob64(handle, index, base, UInt64(buffer.count), transientDestructor)
            }
        case .null:
            code = sqlite3_bind_null(handle, index)
        }
        guard code == SQLITE_OK else { throw database.error(code: code) }
    }

    /// Advances to the next row: `true` when a row is ready to read, `false` when done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw database.error(code: code)
        }
    }

    /// Forgets the current position (and releases the read it holds); bindings stay.
    func reset() { sqlite3_reset(handle) }

    /// Binds `values` and runs the statement to completion, ignoring any rows.
    func execute(_ values: SQLiteValue...) throws {
        try bind(values)
        defer { reset() }
        while try step() {}
    }

    /// Binds `values`, runs the statement and returns `read` of its first row, or `nil` if none.
    func query<T>(_ values: SQLiteValue..., read: (SQLiteStatement) throws -> T) throws -> T? {
        try bind(values)
        defer { reset() }
        return try step() ? read(self) : nil
    }

    /// Binds `values` and calls `read` for every row, in order.
    func forEachRow(_ values: SQLiteValue..., read: (SQLiteStatement) throws -> Void) throws {
        try bind(values)
        defer { reset() }
        while try step() { try read(self) }
    }

    // MARK: Columns of the current row (0-based)

    func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func text(at column: Int32) -> String {
        guard let characters = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: characters)
    }

    func blob(at column: Int32) -> [UInt8] {
        // `column_blob` before `column_bytes`, as SQLite's documentation asks.
        guard let base = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return [UInt8](UnsafeRawBufferPointer(start: base, count: count))
    }
}

// SQLITE_TRANSIENT: SQLite copies the bound bytes before the bind call returns, so Swift's
// temporary buffers may go away right after.
private var transientDestructor: sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
}
