import Testing

@testable import CacheLab

/// `cachelab topic`: every topic is listed and explained, and an unknown one is refused by name.
@Suite struct TopicCommandTests {
    @Test func listsEveryTopic() throws {
        let output = try Binary.run(["topic"])
        #expect(output.status == 0)
        for name in ["capacity", "size-modes", "tiers", "presets", "opt-ratio", "admission"] {
            #expect(output.stdout.contains("  \(name) "), "topic \(name) missing from the list")
        }
    }

    @Test(arguments: ["capacity", "size-modes", "tiers", "presets", "opt-ratio", "admission", "live", "next-uses"])
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

@Suite("Help that reads like a page")
struct HelpPageTests {
    @Test func runsHelpFitsAPageAndSaysEachDefaultOnce() throws {
        let help = try Binary.run(["run", "--help"]).stdout
        #expect(help.filter { $0 == "\n" }.count < 120)  // lines, as `wc -l` counts them
        // Each option's block (from its "  --name" line to the next) gives its default at most once.
        var blocks: [String] = []
        for line in help.split(separator: "\n") {
            if line.hasPrefix("  -") {
                blocks.append(String(line))
            } else if !blocks.isEmpty {
                blocks[blocks.count - 1] += " " + line
            }
        }
        #expect(blocks.count > 20)
        for block in blocks {
            #expect(block.components(separatedBy: "default").count <= 2, "\(block)")
        }
        // The hidden groups are one flag away, and every topic it names exists
        let hidden = try Binary.run(["run", "--help-hidden"]).stdout
        for option in ["--server", "--shard", "--days", "--out-dir"] { #expect(hidden.contains(option), "\(option)") }
        for topic in ["capacity", "size-modes", "tiers", "presets", "opt-ratio", "admission", "live", "next-uses"] {
            #expect(help.contains(topic))
            #expect(try Binary.run(["topic", topic]).status == 0, "\(topic)")
        }
    }

    @Test func countsAreSaidWithTheirNounsInTheRightNumber() {
        #expect(Report.counted(1, "policy", plural: "policies") == "1 policy")
        #expect(Report.counted(12_000, "object") == "12,000 objects")
        #expect(Report.counted(0, "trace") == "0 traces")
    }
}
