import CacheEngine
import ClientModel

/// Renders a tuner's recommendation: the JSON the client's defaults come from, the Swift source
/// the client compiles them from, and the explanation for people.
public enum TuningReport {
    /// A client setup replayed on every trace, averaged: one row of the comparison table.
    public struct ClientSummary: Sendable, Equatable {
        public var client: ClientConfiguration
        public var hitRatio: Double
        /// The share of requests the memory tier served.
        public var memoryHitRatio: Double
        public var byteHitRatio: Double
        public var latencyP95: Double
        public var bytesDownloaded: Int
        /// The most bytes favourites pinned at once in the memory and the disk tier, on any trace:
        /// beside the capacities, within each tier's pin budget.
        public var pinnedMemoryPeak = 0
        public var pinnedDiskPeak = 0
    }

    /// Each client replayed on every trace and averaged (the recommended one and the presets).
    public static func summarize(
        _ clients: [ClientConfiguration], on sources: [TraceSource], workers: Int = ParallelSweep.defaultWorkers
    ) throws(TraceError) -> [ClientSummary] {
        let byTrace = try RunPlan.execute(clients.map { .client($0) }, on: sources, workers: workers)
        let count = Double(sources.count)
        return clients.indices.map { index in
            let mine = byTrace.map { $0[index].run }
            return ClientSummary(
                client: clients[index], hitRatio: mine.map(\.hitRatio).reduce(0, +) / count,
                memoryHitRatio: mine.map { $0.requests == 0 ? 0 : Double($0.memoryHits) / Double($0.requests) }
                    .reduce(0, +) / count,
                byteHitRatio: mine.map(\.byteHitRatio).reduce(0, +) / count,
                latencyP95: mine.map { Report.latency(of: $0).p95 }.reduce(0, +) / count,
                bytesDownloaded: mine.map(\.bytesDownloaded).reduce(0, +),
                pinnedMemoryPeak: mine.compactMap(\.client?.pins.peakMemoryBytes).max() ?? 0,
                pinnedDiskPeak: mine.compactMap(\.client?.pins.peakDiskBytes).max() ?? 0)
        }
    }

    /// `results/recommended-defaults.json`: the recommended tiers and what they are expected to do.
    public static func json(
        _ recommendation: Tuner.Recommendation, expected: ClientSummary, presets: [ClientSummary] = [],
        workingSets: [Int] = [], command: String
    ) -> String {
        func tier(_ tier: TierConfiguration?) -> String {
            guard let tier else { return "null" }
            let ttl = tier.ttl.map { Report.decimal(Double($0) / 1000, places: 0) } ?? "null"
            return """
                {"policy": "\(tier.policy.rawValue)", "capacity_bytes": \(tier.capacity), \
                "ttl_s": \(ttl), "ttl_mode": "\(tier.ttlMode.rawValue)"}
                """
        }
        let request = recommendation.request
        return """
            {
              "generated_by": \(quoted(command)),
              "traces": [\(recommendation.traces.map(quoted).joined(separator: ", "))],
              "working_set_bytes": [\(workingSets.map(String.init).joined(separator: ", "))],
              "memory_budget_bytes": \(request.memoryBudget),
              "disk_budget_bytes": \(request.diskBudget),
              "bytes_margin": \(Report.decimal(request.bytesMargin, places: 4)),
              "latency_margin_ms": \(Report.decimal(request.latencyMargin, places: 3)),
              "memory_margin": \(Report.decimal(request.memoryMargin, places: 4)),
              "memory": \(tier(recommendation.memory.tier)),
              "disk": \(tier(recommendation.disk.tier)),
              "expected": {"hit_ratio": \(Report.decimal(expected.hitRatio, places: 6)), \
            "memory_hit_ratio": \(Report.decimal(expected.memoryHitRatio, places: 6)), \
            "byte_hit_ratio": \(Report.decimal(expected.byteHitRatio, places: 6)), \
            "latency_p95_ms": \(Report.decimal(expected.latencyP95, places: 3)), \
            "bytes_downloaded": \(expected.bytesDownloaded), \
            "pinned_memory_peak_bytes": \(expected.pinnedMemoryPeak), \
            "pinned_disk_peak_bytes": \(expected.pinnedDiskPeak)},
              "presets": [\(presets.map { preset in
                "\n    " + """
                {"client": \(quoted(preset.client.name)), "memory": \(tier(preset.client.memory)), \
                "disk": \(tier(preset.client.disk)), "hit_ratio": \(Report.decimal(preset.hitRatio, places: 6)), \
                "byte_hit_ratio": \(Report.decimal(preset.byteHitRatio, places: 6)), \
                "latency_p95_ms": \(Report.decimal(preset.latencyP95, places: 3)), \
                "bytes_downloaded": \(preset.bytesDownloaded)}
                """
            }.joined(separator: ","))\(presets.isEmpty ? "" : "\n  ")]
            }

            """
    }

    /// The Swift source that makes the recommendation the client's default
    /// (`ClientConfiguration.recommended`, which `ImagePipeline` uses when given no configuration).
    public static func swiftSource(_ recommendation: Tuner.Recommendation, jsonPath: String) -> String {
        func tier(_ tier: TierConfiguration) -> String {
            var arguments = ["policy: .\(caseName(tier.policy))", "capacity: \(Report.underscored(tier.capacity))"]
            if let ttl = tier.ttl {
                arguments += ["ttl: \(Report.underscored(Int(ttl)))", "ttlMode: .\(tier.ttlMode.rawValue)"]
            }
            return "TierConfiguration(\(arguments.joined(separator: ", ")))"
        }
        return """
            // Generated by `cachelab tune` with \(jsonPath): do not edit by hand; run the tuner again.
            import ClientModel

            extension ClientConfiguration {
                /// The image cache `cachelab tune` recommends for the recipe list: memory \
            \(recommendation.memory.label),
                /// disk \(recommendation.disk.label). `ImagePipeline` uses it when given no configuration.
                public static let recommended = ClientConfiguration(
                    name: "recommended",
                    memory: \(tier(recommendation.memory.tier)),
                    disk: \(tier(recommendation.disk.tier)))
            }

            """
    }

    /// The `PolicyKind` case a policy is written as in Swift: its command-line name, a hyphenated
    /// one in camel case (`wtinylfu-adaptive` is `.wtinylfuAdaptive`).
    static func caseName(_ policy: PolicyKind) -> String {
        let words = policy.rawValue.split(separator: "-")
        return words.enumerated().map { index, word in
            index == 0 ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
    }

    /// The explanation: what was tried, what won and why, and how it compares with the presets.
    public static func markdown(
        _ recommendation: Tuner.Recommendation, comparison: [ClientSummary], command: String
    ) -> String {
        let request = recommendation.request
        let bounds = recommendation.bounds
        let bytesMargin = Report.decimal(request.bytesMargin * 100, places: 1)
        let latencyMargin = Report.decimal(request.latencyMargin, places: 1)
        var out = """
            # Recommended image-cache defaults

            Made by `\(command)` on \(recommendation.traces.count) traces \
            (\(recommendation.traces.joined(separator: ", "))): bytes downloaded are summed over them, \
            ratios and p95 latencies averaged with each trace weighted equally.

            **Disk tier: \(recommendation.disk.label)** — the smallest disk whose client downloads at \
            most \(bytesMargin) % more than the fewest bytes any disk within \(Report.bytes(request.diskBudget)) \
            downloads (\(recommendation.bestDisk.label): \(Report.bytes(bounds.fewestBytes))), with a p95 \
            latency at most \(latencyMargin) ms above the lowest (\(Report.decimal(bounds.lowestP95, places: 1)) ms). \
            It downloads \(Report.bytes(recommendation.disk.bytesDownloaded)) \
            (\(relative(recommendation.disk.bytesDownloaded, to: bounds.fewestBytes))), p95 \
            \(Report.decimal(recommendation.disk.latencyP95, places: 1)) ms.

            **Memory tier: \(recommendation.memory.label)** — in front of that disk, the smallest memory \
            whose client stays within the same bounds and leaves at most \
            \(Report.decimal(request.memoryMargin * 100, places: 1)) % more requests to the disk and the \
            network than the best memory tier within \(Report.bytes(request.memoryBudget)) \
            (\(recommendation.bestMemory.label) serves \(Report.percent(recommendation.bestMemory.memoryShare)) \
            from memory); this one serves \(Report.percent(recommendation.memory.memoryShare)).

            Bytes downloaded are what a miss costs the user in data, and p95 latency what it costs \
            in waiting; the margins are relative, because near a hit ratio of 92 % one point of hit \
            ratio is an eighth of the misses. Every candidate is replayed as the client (relaunches \
            empty memory and rebuild the disk as the real pipeline does). Tried: \
            \(request.policies.map(\.rawValue).joined(separator: ", ")); disk lifetimes \
            \(request.diskTTLs.map { $0.map { Quantity.durationLabel(milliseconds: $0) } ?? "none" }.joined(separator: ", ")) \
            (sliding); capacities from 32 KiB in steps of 1.5× and 2× up to each budget.

            ## Against the presets

            Each preset as its library sizes itself on the device, held to the same budgets \
            (\(Report.bytes(request.memoryBudget)) of memory, \(Report.bytes(request.diskBudget)) of disk): \
            what differs is the policies, sizes, lifetimes, sweeps and reactions to app events. Memory \
            is counted as the client counts it (decoded bitmaps where the traces give pixels). \
            "vs recommended" is how many more bytes the preset downloads than the recommendation \
            (negative: fewer) and how much higher its p95 is. Pinned is what favourites held at most \
            on any trace, memory / disk: beside each tier's capacity, not in it.

            \(verdict(comparison))

            | client | memory | disk | downloaded | vs recommended | p95 latency | vs recommended | hit ratio | served from memory | byte hit ratio | pinned (peak) |
            |---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|

            """
        let recommended = comparison.first { $0.client.name == "recommended" }
        for row in comparison {
            let name = row.client.name == "recommended" ? "**recommended**" : row.client.name
            var bytesVersus = "-"
            var latencyVersus = "-"
            if let recommended, row.client.name != "recommended" {
                bytesVersus = relative(row.bytesDownloaded, to: recommended.bytesDownloaded)
                latencyVersus = signed(row.latencyP95 - recommended.latencyP95) + " ms"
            }
            out += """
                | \(name) | \(tierLabel(row.client.memory)) | \(tierLabel(row.client.disk)) | \
                \(Report.bytes(row.bytesDownloaded)) | \(bytesVersus) | \(Report.decimal(row.latencyP95, places: 1)) ms | \
                \(latencyVersus) | \(Report.percent(row.hitRatio)) | \(Report.percent(row.memoryHitRatio)) | \
                \(Report.percent(row.byteHitRatio)) | \(Report.bytes(row.pinnedMemoryPeak)) / \(Report.bytes(row.pinnedDiskPeak)) |

                """
        }
        out += """

            ## The disk curve

            The best disk-only client at each capacity tried (fewest bytes, then lowest p95): the \
            recommendation is the first row within the bounds (at most \(Report.bytes(bounds.bytes)), \
            p95 at most \(Report.decimal(bounds.p95, places: 1)) ms).

            | capacity | best policy | downloaded | vs fewest | p95 latency | hit ratio |
            |---:|---|---:|---:|---:|---:|

            """
        for candidate in recommendation.diskCurve {
            out += """
                | \(Report.bytes(candidate.tier.capacity)) | \(emphasized(candidate, recommendation.disk)) | \
                \(Report.bytes(candidate.bytesDownloaded)) | \(relative(candidate.bytesDownloaded, to: bounds.fewestBytes)) | \
                \(Report.decimal(candidate.latencyP95, places: 1)) ms | \(Report.percent(candidate.hitRatio)) |

                """
        }
        out += """

            ## The memory curve

            In front of \(recommendation.disk.label), the memory tier at each capacity tried that \
            serves the most requests while its client stays within the bounds.

            | capacity | best policy | served from memory | downloaded | p95 latency |
            |---:|---|---:|---:|---:|

            """
        for candidate in recommendation.memoryCurve {
            out += """
                | \(Report.bytes(candidate.tier.capacity)) | \(emphasized(candidate, recommendation.memory)) | \
                \(Report.percent(candidate.memoryShare)) | \(Report.bytes(candidate.bytesDownloaded)) | \
                \(Report.decimal(candidate.latencyP95, places: 1)) ms |

                """
        }
        out += "\n## Disk policies at \(Report.bytes(recommendation.disk.tier.capacity))\n\n"
        out +=
            "| policy (best lifetime) | downloaded | p95 latency | hit ratio | byte hit ratio |\n|---|---:|---:|---:|---:|\n"
        for candidate in recommendation.diskAtCapacity {
            out += """
                | \(emphasized(candidate, recommendation.disk)) | \(Report.bytes(candidate.bytesDownloaded)) | \
                \(Report.decimal(candidate.latencyP95, places: 1)) ms | \(Report.percent(candidate.hitRatio)) | \
                \(Report.percent(candidate.byteHitRatio)) |

                """
        }
        out += "\n## Memory policies at \(Report.bytes(recommendation.memory.tier.capacity))\n\n"
        out += "| policy | served from memory | downloaded | p95 latency | hit ratio |\n|---|---:|---:|---:|---:|\n"
        for candidate in recommendation.memoryAtCapacity {
            out += """
                | \(emphasized(candidate, recommendation.memory)) | \(Report.percent(candidate.memoryShare)) | \
                \(Report.bytes(candidate.bytesDownloaded)) | \(Report.decimal(candidate.latencyP95, places: 1)) ms | \
                \(Report.percent(candidate.hitRatio)) |

                """
        }
        return out
    }

    /// One sentence on the recommendation against the preset that downloads the fewest bytes (and,
    /// if another, the one with the lowest p95): how much more it costs, if anything.
    public static func verdict(_ comparison: [ClientSummary]) -> String {
        guard let recommended = comparison.first(where: { $0.client.name == "recommended" }) else { return "" }
        let presets = comparison.filter { $0.client.name != "recommended" }
        // Among presets that download as little, the one with the lowest p95, then the first listed.
        guard
            let fewest = presets.min(by: {
                ($0.bytesDownloaded, $0.latencyP95) < ($1.bytesDownloaded, $1.latencyP95)
            }),
            let fastest = presets.min(by: { $0.latencyP95 < $1.latencyP95 })
        else { return "" }
        let bytes = relative(recommended.bytesDownloaded, to: fewest.bytesDownloaded)
        let latency = signed(recommended.latencyP95 - fastest.latencyP95)
        return """
            The recommendation downloads \(Report.bytes(recommended.bytesDownloaded)), \(bytes) against the \
            preset that downloads the fewest (\(fewest.client.name), \(Report.bytes(fewest.bytesDownloaded))), \
            and its p95 is \(latency) ms against the lowest (\(fastest.client.name), \
            \(Report.decimal(fastest.latencyP95, places: 1)) ms); it uses \(footprint(recommended.client)) \
            where \(fewest.client.name) uses \(footprint(fewest.client)).
            """
    }

    /// The comparison as the terminal shows it at the end of a tune: each client's tiers, the
    /// bytes it downloads and its p95 against the recommendation's, its hit ratio.
    public static func table(_ comparison: [ClientSummary]) -> String {
        let recommended = comparison.first { $0.client.name == "recommended" }
        var rows = [["client", "memory", "disk", "downloaded", "vs recommended", "p95", "hit ratio"]]
        for row in comparison {
            let isRecommended = row.client.name == "recommended"
            rows.append([
                row.client.name, tierLabel(row.client.memory), tierLabel(row.client.disk),
                Report.bytes(row.bytesDownloaded),
                isRecommended ? "" : recommended.map { relative(row.bytesDownloaded, to: $0.bytesDownloaded) } ?? "",
                Report.decimal(row.latencyP95, places: 1) + " ms", Report.percent(row.hitRatio),
            ])
        }
        return Report.render(rows)
    }

    /// `value` against `base`, as a signed percentage: "+3.4 %", "-1.0 %", "+0.0 %".
    public static func relative(_ value: Int, to base: Int) -> String {
        guard base > 0 else { return "-" }
        return signed((Double(value) / Double(base) - 1) * 100) + " %"
    }

    /// A difference with its sign, one decimal: "+1.9", "-0.3", "+0.0".
    static func signed(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return (rounded < 0 ? "-" : "+") + Report.decimal(abs(rounded), places: 1)
    }

    /// A tier as the comparison names it: `lru 8.39 MB, 1w sliding`, or `none`.
    static func tierLabel(_ tier: TierConfiguration?) -> String {
        guard let tier else { return "none" }
        let amount = tier.capacity >= CacheConfiguration.unlimited ? "unlimited" : Report.bytes(tier.capacity)
        let ttl = tier.ttl.map { ", \(Quantity.durationLabel(milliseconds: $0)) \(tier.ttlMode.rawValue)" } ?? ""
        return "\(tier.policy.rawValue) \(amount)\(ttl)"
    }

    /// What a client's tiers take: "8.39 MB of memory and 8.39 MB of disk", "no memory and 67.11 MB of disk".
    static func footprint(_ client: ClientConfiguration) -> String {
        func amount(_ tier: TierConfiguration?, _ what: String) -> String {
            guard let tier else { return "no \(what)" }
            let size = tier.capacity >= CacheConfiguration.unlimited ? "unlimited" : Report.bytes(tier.capacity)
            return "\(size) of \(what)"
        }
        return "\(amount(client.memory, "memory")) and \(amount(client.disk, "disk"))"
    }

    /// The candidate's label, in bold when it is the one recommended.
    private static func emphasized(_ candidate: Tuner.Candidate, _ recommended: Tuner.Candidate) -> String {
        candidate.tier == recommended.tier ? "**\(candidate.label)** (recommended)" : candidate.label
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}

extension Report {
    /// 1572864 → "1_572_864", as Swift source writes big numbers.
    static func underscored(_ value: Int) -> String {
        grouped(value).replacingAll(",", with: "_")
    }
}
