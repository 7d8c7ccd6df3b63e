import RecipeClient

/// Opens a disk tier's SQLite file as the next launch would and checks every row: the file
/// opens, each row's length and checksum match, the byte total is the rows' sizes, and each row
/// reads back as a whole image.
struct StoreCheck: Sendable {
    var rowsChecked = 0
    var failures: [String] = []

    /// Checks the store at `path` (`after` names the moment, for the messages); returns its rows'
    /// URLs and sizes, so that a caller can tell whether it changed.
    mutating func run(_ path: String, after moment: String) throws -> [String: Int] {
        let store: DiskStore
        do {
            store = try DiskStore(path: path)
        } catch {
            failures.append("the store did not open after \(moment): \(error)")
            return [:]
        }
        let entries = try store.entries()
        let verification = try store.verifyAll()
        if !verification.removedURLs.isEmpty {
            failures.append("rows failing their checksum after \(moment): \(verification.removedURLs)")
        }
        let total = try store.totalBytes()
        if total != entries.reduce(0, { $0 + $1.size }) {
            failures.append("byte total \(total) is not the rows' sizes after \(moment)")
        }
        for entry in entries {
            rowsChecked += 1
            guard let bytes = try store.get(url: entry.url, at: entry.lastAccess) else {
                failures.append("\(entry.url) listed but not readable after \(moment)")
                continue
            }
            if bytes.count != entry.size || ImageFormat.whole(bytes) == nil {
                failures.append("\(entry.url) partial (\(bytes.count) of \(entry.size) bytes) after \(moment)")
            }
        }
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.url, $0.size) })
    }

}
