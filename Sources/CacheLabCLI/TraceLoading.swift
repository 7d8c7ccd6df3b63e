import ArgumentParser
import CacheLab

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The traces commands read: files streamed, recordings merged, everything else held in memory.
enum TraceLoading {
    /// A trace file as a stream (its errors come when it is read), or a recording's folder, read
    /// and merged now.
    static func source(path: String, format: TraceFormat?, columns: String?) throws -> TraceSource {
        do {
            let spec = try columns.map { text throws(TraceError) in try CSVColumns(parsing: text) }
            if Recording.isFolder(path) && format == nil && spec == nil {
                // A recording's folder (`cachelab trace import` checks and merges it the same way).
                let recording = try Recording.read(path: path)
                Output.detail(
                    "read \(recording.trace.count) requests from the \(recording.parts.count) parts of the recording \(path)"
                )
                return TraceSource(recording.trace)
            }
            return TraceSource.file(path, format: format, columns: spec)
        } catch {
            throw CLIError(error)
        }
    }

    /// Refuses, before any work, a trace path that cannot be read: missing, a folder that is not a
    /// recording, a pipe or a device, or unreadable.
    static func checkReadable(_ path: String) throws {
        if Recording.isFolder(path) { return }
        do {
            try TraceSource.file(path).checkRereadable()
        } catch {
            throw ValidationError(error.description)
        }
        guard access(path, R_OK) == 0 else {
            throw ValidationError(
                TraceError.unreadable(file: path, reason: String(cString: strerror(errno))).description)
        }
    }

    /// The trace a source gives, held in memory (for the live replay, `trace stats`, `serve`).
    static func load(_ source: TraceSource) throws -> Trace {
        if let trace = source.trace { return trace }
        let start = Output.monotonicSeconds()
        do {
            var trace = try source.open().readAll()
            trace.name = source.name
            let seconds = Output.monotonicSeconds() - start
            Output.detail(
                "read \(Report.grouped(trace.count)) requests from \(source.name) in \(Report.decimal(seconds, places: 2)) s"
            )
            return trace
        } catch {
            throw CLIError(error)
        }
    }

    /// The status line about a trace whose statistics are known.
    static func describe(_ name: String, _ statistics: TraceStatistics) -> String {
        "trace \(name): \(Report.counted(statistics.requests, "request")), \(Report.counted(statistics.uniqueObjects, "object")), working set \(Report.bytes(statistics.workingSetBytes))"
    }
}
