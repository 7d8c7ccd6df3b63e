import ArgumentParser
import CacheLab

struct ConvertTrace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Rewrite a trace in another format, or compress or decompress it with zstd.",
        discussion: """
            Reads any format cachelab reads (cachelab's CSV, libCacheSim's CSV, txt and oracleGeneral, each \
            plain or .zst) and writes it a chunk at a time, in constant memory. The output's format comes \
            from its name as with `trace generate`, or --format; a final .zst compresses it. Writing \
            oracleGeneral from a format without next uses takes one more pass over the input.

            Examples:
              cachelab trace convert cluster52.oracleGeneral.bin cluster52.oracleGeneral.zst
              cachelab trace convert weekly.csv weekly.oracleGeneral.bin
            """
    )

    @Argument(help: ArgumentHelp("Trace to read.", valueName: "in"))
    var input: String

    @Argument(help: ArgumentHelp("File to write; a final .zst compresses it with zstd.", valueName: "out"))
    var out: String

    @Option(help: ArgumentHelp("Format of the input; inferred from its name when omitted.", valueName: "format"))
    var traceFormat: TraceFormat?

    @Option(help: ArgumentHelp("Columns of a libCacheSim CSV input, 1-based.", valueName: "time=N,id=N,size=N"))
    var columns: String?

    @Option(help: "Format to write; inferred from the output's name when omitted (cachelab's for .csv).")
    var format: TraceFormat?

    func validate() throws {
        guard input != out else { throw ValidationError("the output must not be the input") }
        try OutputPath.checkFile(out, option: "the output")
    }

    func run() async throws {
        let source = try TraceLoading.source(path: input, format: traceFormat, columns: columns)
        try await TraceWriting.write(
            source, format: TraceWriting.format(for: out, given: format), to: out, what: "convert")
    }
}
