import Testing

/// `cachelab topic`: every topic is listed and explained, and an unknown one is refused by name.
@Suite struct TopicCommandTests {
    @Test func listsEveryTopic() throws {
        let output = try Binary.run(["topic"])
        #expect(output.status == 0)
        for name in ["capacity", "size-modes", "tiers", "presets", "opt-ratio", "admission"] {
            #expect(output.stdout.contains("  \(name) "), "topic \(name) missing from the list")
        }
    }

    @Test(arguments: ["capacity", "size-modes", "tiers", "presets", "opt-ratio", "admission"])
    func explainsATopicWithAnExampleAndWhereToReadMore(name: String) throws {
        let output = try Binary.run(["topic", name])
        #expect(output.status == 0)
        #expect(output.stdout.contains("cachelab "), "no example command")
        #expect(output.stdout.contains("More: the DocC article"))
    }

    @Test func refusesAnUnknownTopicNamingTheChoices() throws {
        let output = try Binary.run(["topic", "sharding"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("sharding"))
        #expect(output.stderr.contains("capacity"))
    }

    @Test func theRootHelpPointsAtTheTopics() throws {
        let output = try Binary.run(["--help"])
        #expect(output.stdout.contains("cachelab topic"))
    }
}
