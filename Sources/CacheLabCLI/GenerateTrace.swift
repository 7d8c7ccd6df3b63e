import ArgumentParser
import CacheLab

struct GenerateTrace: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a generated trace in cachelab's or libCacheSim's formats.",
        discussion: """
            Scenarios (each a mix of people, a device, a catalog and a number of days; any option below adjusts it):
            \(ScrollScenario.presets.map { "  \($0.name.padding(20))\($0.summary)" }.joined(separator: "\n"))
              zipf                independent requests with Zipf popularity (--requests, --objects, --alpha)
            The same scenario, options and seed always give a byte-identical file.

            A zipf trace streams to the file a chunk at a time, so any number of requests takes constant \
            memory (an oracleGeneral file takes a second pass for the next uses, 16 bytes a request in \
            temporary files). A name ending in .zst is compressed with zstd.

            Example: cachelab trace generate --scenario zipf --requests 100000000 --objects 5000000 \
            --sizes images --out zipf.oracleGeneral.zst
            """
    )

    @OptionGroup var generator: ScenarioOptions

    @Option(help: ArgumentHelp("File to write; a final .zst compresses it with zstd.", valueName: "path"))
    var out: String

    @Option(
        help:
            "Format to write. Default: cachelab's own (keeps URLs and events), or libCacheSim's txt or oracle-general when --out ends in .txt or .oracleGeneral.bin (or .oracleGeneral.zst); libCacheSim's csv only when asked."
    )
    var format: TraceFormat?

    func validate() throws { try OutputPath.checkFile(out, option: "--out") }

    func run() async throws {
        try await TraceWriting.write(
            generator.makeSource(), format: TraceWriting.format(for: out, given: format), to: out, what: "generate")
    }
}
