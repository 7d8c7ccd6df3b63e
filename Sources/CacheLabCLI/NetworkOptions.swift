import ArgumentParser
import CacheLab
import ClientModel

/// The network the latency model assumes: shared by run, compare and tune.
struct NetworkOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Network profile of the latency model (a miss costs a round trip plus transfer): "
                + NetworkProfile.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: ", ") + ".",
            valueName: "profile"))
    var network: NetworkProfile = .wifi
}
