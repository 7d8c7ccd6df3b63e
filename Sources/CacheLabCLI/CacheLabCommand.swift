import ArgumentParser

/// `cachelab`: its subcommands, each parsed and run by the argument parser. The executable
/// (`Sources/CacheLabMain`) calls `main()`.
public struct CacheLabCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "cachelab",
        abstract: "Which image-cache policy, size and lifetime should your app ship with? Replay traces and measure.",
        discussion: """
            Start with `cachelab run --policy lru`: it replays the built-in daily-reader scenario \
            (one person reading a 63-recipe list most days for two weeks) and prints hit ratio, bytes \
            saved and latency. Point --trace at a file to replay your own trace, --scenario at another \
            generated one, --client at the presets of real image libraries; `cachelab serve` imitates \
            the recipe API over loopback. New here? `cachelab topic` explains capacities, size \
            modes, tiers, presets, opt_ratio and admission.
            """,
        subcommands: [
            RunCommand.self, MRCCommand.self, CompareCommand.self, MergeCommand.self, CheckCommand.self,
            TuneCommand.self,
            TraceCommand.self,
            ServeCommand.self,
            TopicCommand.self, PoliciesCommand.self,
        ]
    )

    public init() {}
}
