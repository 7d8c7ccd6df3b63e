import FoundationEssentials

/// A folder of a sweep's cells: `sweep.json` (the manifest) and one `HASH.cell.json` per cell
/// computed, each written whole or not at all, so a task killed at any moment leaves only whole
/// cells and the next task computes just the missing ones.
///
/// Several tasks, on several machines, may write into one folder on shared storage at once: each
/// cell is written by rename, and a manifest already there must be the same sweep's.
public struct SweepStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
    }

    public static let manifestName = "sweep.json"
    static let cellSuffix = ".cell.json"

    /// A cell file as written: the result format's version, what it ran on, and its output.
    struct CellFile: Codable {
        var format: Int
        var trace: TraceIdentity
        var key: String
        var output: SweepOutput
    }

    // MARK: Writing (a task)

    /// Makes the folder if needed and writes `manifest` there, or checks that the one already
    /// there is the same sweep's.
    ///
    /// - Throws: `SweepStoreError.otherSweep` when the folder holds another sweep's cells,
    ///   `.otherFormat` when another version of cachelab wrote it.
    public func prepare(for manifest: SweepManifest) throws(SweepStoreError) {
        try makeDirectory()
        let path = "\(directory)/\(Self.manifestName)"
        if let existing = try readManifest(path) {
            guard existing == manifest else {
                throw .otherSweep(directory: directory, theirs: existing, ours: manifest)
            }
            return
        }
        do {
            try AtomicFile.write(try Self.encoder.encode(manifest), to: path)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
    }

    /// Cell `index`'s output when its file is here, else nil.
    ///
    /// - Throws: `SweepStoreError` when the file is there but cut short, of another format
    ///   version, or another sweep's.
    public func read(_ index: Int, of manifest: SweepManifest) throws(SweepStoreError) -> SweepOutput? {
        let path = "\(directory)/\(manifest.fileName(index))"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Self.readCell(path, index: index, of: manifest)
    }

    /// Writes cell `index`'s output.
    public func write(_ output: SweepOutput, cell index: Int, of manifest: SweepManifest) throws(SweepStoreError) {
        let path = "\(directory)/\(manifest.fileName(index))"
        let cell = manifest.cells[index]
        let file = CellFile(format: manifest.format, trace: manifest.traces[cell.trace], key: cell.key, output: output)
        do {
            try AtomicFile.write(try Self.encoder.encode(file), to: path)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
    }

    /// How many of the manifest's cells are here.
    public func present(of manifest: SweepManifest) -> Int {
        manifest.cells.indices.count(where: {
            FileManager.default.fileExists(atPath: "\(directory)/\(manifest.fileName($0))")
        })
    }

    // MARK: Gathering (`cachelab merge`)

    /// The sweep in `directories` and every cell's output, in the manifest's order: refused
    /// unless the folders hold one sweep, every cell of it, and nothing else.
    ///
    /// - Throws: `SweepStoreError.incomplete` naming the missing cells; `.otherSweep` when the
    ///   folders' manifests differ; `.strayCells` when a folder holds cells of no cell of the
    ///   sweep (another sweep's, another format's); `.otherFormat` for a folder another version
    ///   of cachelab wrote; `.damagedCell` for a cell cut short.
    public static func gather(_ directories: [String]) throws(SweepStoreError) -> (SweepManifest, [SweepOutput]) {
        precondition(!directories.isEmpty, "gather needs a folder")
        let stores = directories.map(SweepStore.init)
        var manifest: SweepManifest?
        var from = ""
        for store in stores {
            let path = "\(store.directory)/\(manifestName)"
            guard let found = try store.readManifest(path) else {
                throw .noSweep(directory: store.directory)
            }
            if let manifest, manifest != found {
                throw .otherSweep(directory: store.directory, theirs: found, ours: manifest, oursFrom: from)
            }
            manifest = found
            from = store.directory
        }
        let sweep = manifest!
        let names = sweep.cells.indices.map(sweep.fileName)
        let expected = Set(names)
        for store in stores {
            let stray = try store.cellFiles().filter { !expected.contains($0) }
            if !stray.isEmpty { throw .strayCells(directory: store.directory, files: stray) }
        }
        var outputs: [SweepOutput] = []
        var missing: [Int] = []
        for (index, name) in names.enumerated() {
            guard let store = stores.first(where: { FileManager.default.fileExists(atPath: "\($0.directory)/\(name)") })
            else {
                missing.append(index)
                continue
            }
            outputs.append(try readCell("\(store.directory)/\(name)", index: index, of: sweep))
        }
        guard missing.isEmpty else {
            throw .incomplete(
                missing: missing.map { "\(sweep.traces[sweep.cells[$0].trace].name): \(sweep.cells[$0].key)" },
                total: sweep.cells.count)
        }
        return (sweep, outputs)
    }

    // MARK: Files

    /// The names of the cell files here (hidden temporary files left by a killed task are not).
    func cellFiles() throws(SweepStoreError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasSuffix(Self.cellSuffix) && !$0.hasPrefix(".") }.sorted()
        } catch {
            throw .unreadable(path: directory, reason: "\(error)")
        }
    }

    private func makeDirectory() throws(SweepStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: directory, reason: "\(error)")
        }
    }

    private func readManifest(_ path: String) throws(SweepStoreError) -> SweepManifest? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data = try Self.contents(path)
        let manifest: SweepManifest
        do {
            manifest = try JSONDecoder().decode(SweepManifest.self, from: data)
        } catch {
            if let version = Self.formatVersion(data), version != SweepManifest.formatVersion {
                throw .otherFormat(path: path, version: version)
            }
            throw .damagedManifest(path: path, reason: Self.describe(error, bytes: data.count))
        }
        // A folder an older cachelab wrote: its cells would not decode as this version's results.
        guard manifest.format == SweepManifest.formatVersion else {
            throw .otherFormat(path: path, version: manifest.format)
        }
        return manifest
    }

    private static func readCell(
        _ path: String, index: Int, of manifest: SweepManifest
    ) throws(SweepStoreError)
        -> SweepOutput
    {
        let data = try contents(path)
        let cell: CellFile
        do {
            cell = try JSONDecoder().decode(CellFile.self, from: data)
        } catch {
            if let version = formatVersion(data), version != manifest.format {
                throw .otherFormat(path: path, version: version)
            }
            throw .damagedCell(path: path, reason: describe(error, bytes: data.count))
        }
        guard cell.format == manifest.format else { throw .otherFormat(path: path, version: cell.format) }
        let entry = manifest.cells[index]
        guard cell.trace == manifest.traces[entry.trace], cell.key == entry.key else {
            throw .foreignCell(path: path, trace: cell.trace, key: cell.key)
        }
        return cell.output
    }

    private static func contents(_ path: String) throws(SweepStoreError) -> Data {
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// The `format` field of a file that does not decode whole, when it can be read.
    private static func formatVersion(_ data: Data) -> Int? {
        struct Versioned: Decodable { var format: Int }
        return try? JSONDecoder().decode(Versioned.self, from: data).format
    }

    private static func describe(_ error: any Error, bytes: Int) -> String {
        if case DecodingError.dataCorrupted = error { return "not whole JSON (\(bytes) bytes): cut short or damaged" }
        if case DecodingError.keyNotFound(let key, _) = error { return "its \"\(key.stringValue)\" is missing" }
        return "it does not decode (\(bytes) bytes): \(error)"
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()
}

/// Why a sweep's folder cannot be written or gathered.
public enum SweepStoreError: Error, Sendable, CustomStringConvertible {
    case unwritable(path: String, reason: String)
    case unreadable(path: String, reason: String)
    case noSweep(directory: String)
    case otherSweep(directory: String, theirs: SweepManifest, ours: SweepManifest, oursFrom: String = "")
    case otherFormat(path: String, version: Int)
    case damagedManifest(path: String, reason: String)
    case damagedCell(path: String, reason: String)
    case foreignCell(path: String, trace: TraceIdentity, key: String)
    case strayCells(directory: String, files: [String])
    case incomplete(missing: [String], total: Int)

    public var description: String {
        switch self {
        case .unwritable(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .noSweep(let directory):
            return
                "\(directory) holds no sweep (no \(SweepStore.manifestName)): give the --out-dir the sharded tasks wrote to"
        case .otherSweep(let directory, let theirs, let ours, let oursFrom):
            let what = oursFrom.isEmpty ? "this sweep" : "the sweep in \(oursFrom)"
            return
                "\(directory) holds another sweep's cells (\(theirs.command), \(theirs.cells.count) cells), not \(what)'s (\(ours.command), \(ours.cells.count) cells): give each sweep a folder of its own"
        case .otherFormat(let path, let version):
            return
                "\(path) was written by a cachelab whose result format is version \(version), not \(SweepManifest.formatVersion): run the sweep again into a new folder"
        case .damagedManifest(let path, let reason):
            return "\(path) is damaged: \(reason); delete the folder's \(SweepStore.manifestName) and run a task again"
        case .damagedCell(let path, let reason):
            return "\(path) is damaged: \(reason); delete it and run its task again to recompute it"
        case .foreignCell(let path, let trace, let key):
            return "\(path) holds another sweep's cell (\(trace.name): \(key)): give each sweep a folder of its own"
        case .strayCells(let directory, let files):
            let shown = files.prefix(5).joined(separator: ", ")
            return
                "\(directory) holds \(files.count) cell file\(files.count == 1 ? "" : "s") of no cell of this sweep (\(shown)\(files.count > 5 ? ", …" : "")): another sweep's or another version's; a merge never mixes sweeps"
        case .incomplete(let missing, let total):
            let shown = missing.prefix(10).map { "  \($0)" }.joined(separator: "\n")
            return
                "the sweep is not complete: \(missing.count) of \(total) cells are missing; run (or resubmit) the tasks that compute them:\n\(shown)\(missing.count > 10 ? "\n  …" : "")"
        }
    }
}
