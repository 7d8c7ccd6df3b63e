import ArgumentParser
import CacheLab

struct ImportTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Check and merge a recording made in an app by TraceRecorder, and say what it holds.",
        discussion: """
            PATH is a recording's folder, whose part-*.csv files are merged in name order, or one part. \
            Each part is cachelab's trace format with the recorder's source column (the tier that \
            answered each lookup in the app). A last line that a crash cut short is dropped and \
            counted; anything else malformed is an error naming the part and the line.

            With --out the merged trace is written in cachelab's format, for `cachelab run --trace FILE` \
            and `cachelab compare --trace FILE`. Those commands also take the folder itself as --trace.

            Example: cachelab trace import ~/Downloads/image-trace --out traces/app-week.csv
            """
    )

    @Argument(help: ArgumentHelp("A recording's folder, or one of its part files.", valueName: "path"))
    var path: String

    @Option(help: ArgumentHelp("Write the merged trace here (cachelab's format).", valueName: "path"))
    var out: String?

    func validate() throws { try OutputPath.checkFile(out, option: "--out") }

    func run() throws {
        let recording: Recording
        do {
            recording = try Recording.read(path: path)
        } catch {
            throw CLIError(error)
        }
        print(Self.table(recording), terminator: "")
        guard let out else {
            Output.status("checked; write the merged trace with --out FILE to replay it")
            return
        }
        do {
            try TraceWriter.write(recording.trace, format: .cachelab, to: out)
        } catch {
            throw CLIError("cannot write \(out): \(error)")
        }
        Output.status(
            "wrote \(Report.counted(recording.trace.count, "request")) and \(Report.counted(recording.trace.events.count, "event")) to \(out)"
        )
    }

    /// Label and value lines: the parts, the requests and what the app's own cache made of them.
    static func table(_ recording: Recording) -> String {
        let trace = recording.trace
        let statistics = TraceStatistics(trace)
        let lookups = recording.sources.values.reduce(0, +)
        func share(_ source: String) -> String {
            guard lookups > 0 else { return "not recorded (no part gives a source column)" }
            let count = recording.sources[source, default: 0]
            return "\(Report.percent(Double(count) / Double(lookups))) (\(Report.grouped(count)))"
        }
        let first = trace.times.first ?? 0
        let last = trace.times.last ?? 0
        var events: [String: Int] = [:]
        for event in trace.events { events[event.kind.rawValue, default: 0] += 1 }
        let rows = [
            ["parts", "\(recording.parts.count)"],
            ["requests", Report.grouped(statistics.requests)],
            ["unique objects", Report.grouped(statistics.uniqueObjects)],
            ["working set", Report.bytes(statistics.workingSetBytes)],
            ["bytes requested", Report.bytes(statistics.bytesRequested)],
            ["span", "\(TraceWriter.seconds(fromMilliseconds: last - first)) s"],
            [
                "events",
                events.isEmpty
                    ? "none"
                    : events.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "),
            ],
            ["app: memory hits", share("memory")],
            ["app: disk hits", share("disk")],
            ["app: downloads", share("network")],
            ["partial lines", "\(recording.droppedPartialLines) dropped (a crash cut the last write short)"],
            ["times raised", "\(recording.raisedTimes) (earlier than the part before them)"],
        ]
        return rows.map { $0[0].padding(19) + $0[1] }.joined(separator: "\n") + "\n"
    }
}
