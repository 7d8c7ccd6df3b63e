import ArgumentParser
import CacheLab
import ClientModel

/// The network the latency model assumes: shared by run, compare and tune.
struct NetworkOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Network of the latency model: a miss costs its round trip plus the transfer (cachelab topic tiers gives each one's).",
            valueName: "profile"))
    var network: NetworkProfile = .wifi
}
