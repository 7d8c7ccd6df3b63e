import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks an output path gets before any work, so that a replay of minutes never ends in
/// "cannot write it".
enum OutputPath {
    /// `path` (given as `option`) can be written as a file: it is not a folder, and its folder
    /// exists and is writable.
    static func checkFile(_ path: String?, option: String) throws {
        guard let path else { return }
        if isDirectory(path) { throw ValidationError("\(option) \(path) is a folder, not a file") }
        let folder = (path as NSString).deletingLastPathComponent
        let parent = folder.isEmpty ? "." : folder
        guard exists(parent) else { throw ValidationError("\(option) \(path): the folder \(parent) does not exist") }
        guard isDirectory(parent) else { throw ValidationError("\(option) \(path): \(parent) is a file, not a folder") }
        if let reason = cannotCreate(in: parent) {
            throw ValidationError("\(option) \(path): cannot write into \(parent) (\(reason))")
        }
    }

    /// `path` (given as `option`) can be written into as a folder: it is a folder or can be made
    /// one (its nearest existing ancestor is a writable folder).
    static func checkFolder(_ path: String, option: String) throws {
        if exists(path) {
            guard isDirectory(path) else { throw ValidationError("\(option) \(path) is a file, not a folder") }
            if let reason = cannotCreate(in: path) {
                throw ValidationError("\(option) \(path): cannot write into it (\(reason))")
            }
            return
        }
        var ancestor = (path as NSString).deletingLastPathComponent
        while !ancestor.isEmpty, !exists(ancestor) { ancestor = (ancestor as NSString).deletingLastPathComponent }
        let existing = ancestor.isEmpty ? "." : ancestor
        guard isDirectory(existing) else {
            throw ValidationError("\(option) \(path): \(existing) is a file, not a folder")
        }
        if let reason = cannotCreate(in: existing) {
            throw ValidationError("\(option) \(path): cannot create it in \(existing) (\(reason))")
        }
    }

    /// Why a file cannot be created in `folder`, or nil when one can: found by creating one and
    /// removing it (the permission bits do not tell root, nor a file system like /proc).
    private static func cannotCreate(in folder: String) -> String? {
        let probe = folder + "/.cachelab-write-check-\(getpid())"
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        close(descriptor)
        unlink(probe)
        return nil
    }

    private static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
