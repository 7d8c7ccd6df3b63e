import ArgumentParser
import CacheEngine
import CacheLab
import ClientModel

/// A concept `cachelab topic` explains.
enum Topic: String, CaseIterable, ExpressibleByArgument {
    case capacity
    case sizeModes = "size-modes"
    case tiers
    case presets
    case optRatio = "opt-ratio"
    case admission
    case live
    case nextUses = "next-uses"

    /// One line for the list of topics.
    var summary: String {
        switch self {
        case .capacity: "the forms --capacity takes: 20MB, 512KiB, 4096, 10% of the working set; ranges"
        case .sizeModes: "bytes or objects: what a capacity counts"
        case .tiers: "memory and disk tiers, relaunches, and the clients built of them"
        case .presets: "what --client nuke (and the other libraries) models"
        case .optRatio: "reading opt_ratio: the hit ratio against Belady's at the same capacity"
        case .admission: "--admission: deciding whether a miss is stored at all"
        case .live: "--mode live: a replay through the real client against a fixture server"
        case .nextUses: "what Belady and --vs-opt need (each request's next use), and what it costs"
        }
    }

    /// The explanation.
    var text: String {
        switch self {
        case .capacity:
            """
            CAPACITY

            --capacity takes a comma-separated list. Each entry is one of:
              4096          bytes (or objects with --size-mode unit)
              20MB, 1.5GB   decimal units: K/KB = 1,000, M/MB = 10^6, G/GB, T/TB
              512KiB, 2GiB  binary units: KiB = 1,024, MiB, GiB, TiB
              10%           a share of the trace's working set, rounded down; the working set
                            sums each object's first-seen size (or counts objects in unit mode),
                            so the same 10% means a different size on every trace
            Instead of a list, a range: --from 1% --to 100% --points 20 (log-spaced unless
            --spacing linear). mrc and compare sweep ranges; run takes either.

              cachelab run --policy lru,s3fifo --capacity 1%,10%,50MB

            More: the DocC article Guide (Using cachelab).
            """
        case .sizeModes:
            """
            SIZE MODES

            --size-mode bytes (the default): every entry costs its size in bytes and the capacity
            counts bytes; hit ratio and byte hit ratio differ.
            --size-mode unit: every entry costs 1 and the capacity counts objects, as most cache
            papers and libCacheSim's default runs do; a 10% capacity is then 10% of the distinct
            objects.

            Compare a policy with a paper's figures in unit mode; choose an app's sizes in bytes
            mode, where a 2 MB photo and a 10 KB thumbnail do not cost the same.

              cachelab run --policy lru,s3fifo --size-mode unit --capacity 1%,10%

            More: the DocC article Exactness.
            """
        case .tiers:
            """
            TIERS AND CLIENTS

            An image app looks in memory, then on disk, then fetches. cachelab models each tier:
              --tier memory   emptied by every relaunch event in the trace
              --tier disk     survives relaunches (the default for a single-tier run)
            A client is the two tiers together: a hit in memory, else on disk (copied into memory),
            else a download stored in both. Give one with --client PRESET, or your own with
            --memory-policy/--memory-capacity and --disk-policy/--disk-capacity. Trace events
            (memory_warning, background, foreground, relaunch) act on the tiers as the client's
            rules say. --memory-cost decoded charges memory by pixels (width × height × 4), as
            image libraries count bitmaps.

            Every miss is modelled as the network profile's round trip plus the transfer
            (--network):
            \(NetworkProfile.allCases.map { "  \($0.rawValue.padding(10)) \($0.summary)" }.joined(separator: "\n"))

              cachelab run --memory-policy lru --memory-capacity 50MB --disk-policy s3fifo --disk-capacity 200MB

            More: the DocC articles Guide and Client presets.
            """
        case .presets:
            """
            PRESETS

            --client NAME replays the two tiers an image library ships by default:
            \(ClientPreset.allCases.map { "  \($0.rawValue)" }.joined(separator: "\n"))
            A preset models the library's memory limit (often a share of the device's memory:
            --device-memory or --client-device), its eviction order, the largest image it keeps,
            its disk limit, expiry and sweep, and how it reacts to memory warnings, backgrounding
            and relaunches, as read from each library's source. It does not model decoding time
            or the network stack beyond the latency profile (--network).

              cachelab run --client all --client-device iphone-se-2

            More: the DocC article Client presets (every rule, with the source file it came from).
            """
        case .optRatio:
            """
            OPT-RATIO

            With --vs-opt, run and compare also replay Belady's optimum (evict the entry used
            furthest in the future) at each capacity, and report
              opt_ratio = the policy's hit ratio ÷ Belady's hit ratio
            at the same capacity, size mode and tier. 0.95 means the policy gets 95% of Belady's
            hits. Belady evicts the entry whose next use is furthest away: with entries of one size
            (unit mode) no cache hits more, so opt_ratio is at most 1; with sizes in bytes it is a
            reference, not a ceiling, because it evicts by next use alone, not by size and next
            use, and a policy that keeps many small photos in the room of one large one can pass
            it (opt_ratio above 1). compare ranks by mean hit ratio and prints opt_ratio's mean
            beside it as "% of Belady". A low opt_ratio at a small capacity says the policy, not the size, is what
            to change; a ratio near 1 says only a bigger cache helps.

              cachelab run --policy all --capacity 1%,10% --vs-opt

            More: the DocC article Guide (The CSV columns).
            """
        case .admission:
            """
            ADMISSION

            --admission puts a filter in front of any policy: on a miss it decides whether the
            object is stored at all (a refusal counts in not_admitted). An image list's flings
            request many photos once, and a filter keeps them from pushing out the ones that
            come back.
              bloom         store on the second request (libCacheSim's Bloom-filter admissioner)
              size:N        store objects smaller than N bytes (size:200KB)
              prob:P        store with probability P
              sizeprob:E    store with probability e^(-E × size)
              adaptsize     AdaptSize (Berger et al., NSDI 2017): sizeprob's parameter re-tuned
                            from the recent requests
            The random ones draw from the cache's seeded stream: the same seed, the same counts.

              cachelab compare --policy lru,s3fifo --admission none,bloom,adaptsize

            More: the DocC article Policies (Admission).
            """
        case .live:
            """
            LIVE REPLAY

            run --mode live replays through the real client instead of the simulator: its image
            pipeline (a memory tier, a SQLite disk tier, URLSession) against a fixture server over
            loopback HTTP, with wall-clock latency per tier and the bytes the server counted. A
            single-tier run is then a client with that one tier (--tier). Each request's outcome
            is checked against the simulator's and the agreement printed. \(HelpText.liveHoldsTrace)
            compare --live replays each policy once more this way at the middle capacity.

              cachelab run --mode live --client nuke --trace traces/weekly-returner.csv
              cachelab run --mode live --help-hidden     # the live replay's and server's options

            More: the DocC article Live replay and the fixture server.
            """
        case .nextUses:
            """
            NEXT USES

            Belady's offline optimum (--policy belady, beladysize, and --vs-opt) evicts by each
            request's next use. \(HelpText.nextUses)

              cachelab run --trace big.oracleGeneral.zst --policy lru,belady --capacity 1GB

            More: the DocC article Guide (Comparing policies).
            """
        }
    }
}
