import ArgumentParser

struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Make and inspect traces.",
        subcommands: [
            GenerateTrace.self, ConvertTrace.self, TraceStats.self, ImportTrace.self, DiffTrace.self,
            CalibrationCommand.self,
        ]
    )
}
