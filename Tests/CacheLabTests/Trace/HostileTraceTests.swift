import CacheEngine
import Testing

@testable import CacheLab

/// Traces at the edges of what the numbers hold: read with a clear error, or replayed correctly,
/// never a crash or an overflow. (The fuzzer's corpus test covers the malformed ones.)
@Suite struct HostileTraceTests {
    @Test func refusesSizesPastFourGibibytesAndKeepsTheLargestOne() throws {
        // Given a size one byte past the largest, in both CSV formats
        let tooLarge =
            "size \"4294967296\" is larger than 4294967295 bytes (4 GiB), the largest object a trace may hold"
        #expect(TraceFixtures.failure("time,key,size\n1,k,4294967296\n") == "t.csv:2: " + tooLarge)
        #expect(TraceFixtures.failure("1,7,4294967296\n", columns: "time=1,id=2,size=3") == "t.csv:1: " + tooLarge)
        #expect(
            TraceFixtures.failure("time,key,size\n1,k,9223372036854775808\n")
                == "t.csv:2: size \"9223372036854775808\" is larger than 4294967295 bytes (4 GiB), the largest object a trace may hold"
        )
        #expect(
            TraceFixtures.failure("time,key,size\n1,k,99999999999999999999\n")
                == "t.csv:2: size \"99999999999999999999\" is not a positive integer of bytes")

        // Then the largest size reads, and a replay sums it without overflowing
        let trace = try TraceFixtures.read("time,key,size\n1,k,4294967295\n2,k,4294967295\n3,j,4294967295\n")
        #expect(trace.sizes == Array(repeating: Trace.largestSize, count: 3))
        for policy in PolicyKind.allCases {
            let result = Replay.simulate(trace, RunConfiguration(policy: policy, capacity: .max))
            #expect(result.bytesRequested == 3 * Trace.largestSize, "\(policy)")
            #expect(result.hits == 1, "\(policy)")
        }
    }

    @Test func refusesNegativeTimesInEveryTextFormat() {
        #expect(
            TraceFixtures.failure("time,key,size\n-1,k,1\n")
                == "t.csv:2: time \"-1\" is not a time in seconds (a number such as 86400 or 86400.5)")
        #expect(
            TraceFixtures.failure("-1,7,1\n", columns: "time=1,id=2,size=3")?.hasPrefix("t.csv:1: time \"-1\"") == true)
        #expect(TraceFixtures.failure("-7\n", name: "t.txt")?.hasPrefix("t.txt:1: id \"-7\"") == true)
    }

    @Test(arguments: [TTLMode.fixed, .sliding])
    func replaysTheLastRepresentableTimeWithALifetime(mode: TTLMode) throws {
        // Given requests a millisecond short of the largest time a trace holds, where now + ttl
        // does not fit in 64 bits
        let trace = try TraceFixtures.read(
            "time,key,size\n9223372036854775.805,k,1\n9223372036854775.806,k,1\n9223372036854775.806,k,1\n")

        // When replayed with a 30-day lifetime, then the entry lives to the last representable
        // time
        for policy in PolicyKind.allCases {
            let configuration = RunConfiguration(
                policy: policy, capacity: 1_000, ttl: 30 * 86_400_000, ttlMode: mode)
            let result = Replay.simulate(trace, configuration)
            #expect(
                result.hits == 2 && result.expirations == 0,
                "\(policy) \(mode): \(result.hits) hits, \(result.expirations) expired")
        }
    }

    @Test(arguments: [SizeMode.bytes, .unit])
    func aTenGigabyteCacheOfOneByteObjectsHoldsEveryObject(sizeMode: SizeMode) {
        // Given 20,000 one-byte objects requested twice each, ids at both ends of 64 bits
        var trace = Trace(name: "tiny objects")
        for pass in 0..<2 {
            for index in 0..<10_000 {
                trace.append(time: Int64(pass), key: UInt64(index), size: 1)
                trace.append(time: Int64(pass), key: UInt64.max - UInt64(index), size: 1)
            }
        }

        // When replayed with 10 GB of room (and with all of Int's), then every second request
        // hits and nothing is evicted
        for policy in PolicyKind.allCases {
            for capacity in [10_000_000_000, Int.max] {
                let result = Replay.simulate(
                    trace, RunConfiguration(policy: policy, capacity: capacity, sizeMode: sizeMode))
                #expect(result.misses == 20_000 && result.hits == 20_000, "\(policy) at \(capacity)")
                // BeladySize lets each entry go at its last use, here its hit (BeladySizePolicyTests).
                let (evicted, kept) = policy == .beladysize ? (20_000, 0) : (0, 20_000)
                #expect(result.evictions == evicted && result.entries == kept, "\(policy) at \(capacity)")
            }
        }
    }

    @Test func sizesTheFirstTableWithinABoundWhateverTheCapacity() {
        // A huge capacity must neither overflow the estimate nor allocate a table to match it:
        // the cache starts within a bound and grows as it fills.
        for mode in SizeMode.allCases {
            for capacity in [1, 10_000_000_000, Int.max] {
                let limits = CacheConfiguration(capacity: capacity, sizeMode: mode)
                #expect(limits.initialEntries >= 16 && limits.initialEntries <= (1 << 17) + 1, "\(mode) at \(capacity)")
            }
        }
    }
}
