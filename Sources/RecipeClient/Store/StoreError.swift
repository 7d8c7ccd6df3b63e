#if canImport(SQLite3)
    import SQLite3  // Apple's SDKs
#else
    import CSQLite  // the system's libsqlite3 (Debian: libsqlite3-dev)
#endif

/// Why the SQLite disk store failed. Every case names the database file; those that come from
/// SQLite carry its result code (extended) and message.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or created (missing folder, no permission, a directory...).
    case cannotOpen(path: String, code: Int32, message: String)
    /// The file exists but is not an SQLite database (SQLITE_NOTADB).
    case notADatabase(path: String, code: Int32, message: String)
    /// The file was written by a newer build whose schema this build does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The disk, or the database's page limit, is full (SQLITE_FULL).
    case diskFull(path: String, code: Int32, message: String)
    /// The database cannot be written (SQLITE_READONLY).
    case readOnly(path: String, code: Int32, message: String)
    /// Any other SQLite failure.
    case sqlite(path: String, code: Int32, message: String)

    /// The case for an SQLite result code (primary or extended).
    init(code: Int32, message: String, path: String) {
        switch code & 0xFF {
        case SQLITE_CANTOPEN: self = .cannotOpen(path: path, code: code, message: message)
        case SQLITE_NOTADB: self = .notADatabase(path: path, code: code, message: message)
        case SQLITE_FULL: self = .diskFull(path: path, code: code, message: message)
        case SQLITE_READONLY: self = .readOnly(path: path, code: code, message: message)
        default: self = .sqlite(path: path, code: code, message: message)
        }
    }

    /// The disk is full or the store read-only: reads still work, writes do not.
    public var refusesWrites: Bool {
        switch self {
        case .diskFull, .readOnly: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let code, let message):
            "Cannot open the image store at \(path): \(message) (SQLite code \(code))."
        case .notADatabase(let path, let code, let message):
            "The file at \(path) is not an image store (not an SQLite database: \(message), code \(code)); "
                + "move it away or delete it."
        case .newerSchema(let path, let found, let supported):
            "The image store at \(path) has schema version \(found), newer than the \(supported) this build "
                + "knows; update the app or delete the file."
        case .diskFull(let path, let code, let message):
            "The disk holding the image store at \(path) is full: \(message) (SQLite code \(code))."
        case .readOnly(let path, let code, let message):
            "The image store at \(path) is read-only: \(message) (SQLite code \(code))."
        case .sqlite(let path, let code, let message):
            "SQLite failed on the image store at \(path): \(message) (code \(code))."
        }
    }
}
