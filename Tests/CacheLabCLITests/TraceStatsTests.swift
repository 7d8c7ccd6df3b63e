import Testing

@testable import CacheLab
@testable import CacheLabCLI

/// `cachelab trace stats`, run as the built binary.
@Suite("cachelab trace stats")
struct TraceStatsTests {
    @Test func csvIsOneHeaderAndOneRowOfTheBuiltInScenariosFigures() throws {
        // Given the built-in scenario, made in-process the way the command makes it
        let command = try #require(try CacheLabCommand.parseAsRoot(["trace", "stats"]) as? TraceStats)
        let trace = try command.reading.load(path: nil)
        let profile = ReuseProfile(trace)

        // When the binary prints its statistics as CSV
        let output = try Binary.run(["trace", "stats", "--format", "csv"])

        // Then stdout holds the documented header and one row that agrees with the profile
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n")
        try #require(lines.count == 2)
        #expect(
            lines[0]
                == """
                trace,requests,unique_objects,working_set_bytes,bytes_requested,events,cold_requests,\
                re_references,reuse_p50_objects,reuse_p90_objects,reuse_p99_objects,reuse_mean_objects,\
                reuse_mean_bytes,one_hit_wonders,one_hit_wonder_ratio,one_hit_wonder_request_share
                """)
        let row = Dictionary(
            uniqueKeysWithValues: zip(lines[0].split(separator: ","), lines[1].split(separator: ",")))
        #expect(lines[1].split(separator: ",", omittingEmptySubsequences: false).count == 16)
        #expect(row["requests"] == Substring(String(trace.count)))
        #expect(row["cold_requests"] == Substring(String(profile.coldRequests)))
        #expect(row["re_references"] == Substring(String(profile.reReferences)))
        #expect(row["reuse_p90_objects"] == Substring(String(profile.objectDistance(atPercentile: 90)!)))
        #expect(row["one_hit_wonders"] == Substring(String(profile.oneHitWonders)))
        // Timing never goes into the CSV, nor onto stderr in a pipe
        #expect(!output.stdout.contains("profiled") && output.stderr.isEmpty)
    }

    @Test func theTableEndsWithTheLog2Histogram() throws {
        let output = try Binary.run(["trace", "stats"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("re-references"))
        #expect(output.stdout.contains("one-hit objects"))
        #expect(output.stdout.contains("reuse distance  re-references"))
    }
}
