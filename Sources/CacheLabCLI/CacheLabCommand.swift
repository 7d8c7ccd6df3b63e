import ArgumentParser

@main
struct CacheLabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cachelab",
        abstract: "Which image-cache policy, size and lifetime should your app ship with? Replay traces and measure.",
        discussion: """
            Start with `cachelab run --policy lru`: it replays the built-in recipe-list scenario \
            (one person scrolling a 63-recipe list over ten days) and prints hit ratio, bytes saved \
            and latency. Point --trace at a file to replay your own trace.
            """,
        subcommands: [RunCommand.self, TraceCommand.self]
    )
}
