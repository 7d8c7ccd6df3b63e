import ArgumentParser

/// `cachelab topic [NAME]`: the concepts a newcomer meets first, explained once for every command
/// (parse → emit: the text is the plan).
struct TopicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topic",
        abstract: "Explain a concept the commands share: capacity, size-modes, tiers, presets, opt-ratio, admission.",
        discussion: "With no name, lists the topics. Every topic ends with the DocC article that goes further."
    )

    @Argument(help: ArgumentHelp("The topic to explain.", valueName: "name"))
    var name: Topic?

    func run() {
        guard let name else {
            print("Topics (cachelab topic NAME):")
            for topic in Topic.allCases {
                print("  \(topic.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(topic.summary)")
            }
            return
        }
        print(name.text)
    }
}
