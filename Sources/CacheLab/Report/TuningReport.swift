import CacheEngine
import ClientModel

/// Renders the tuner's answers, one per kind of app: the JSON the client's defaults and the
/// README come from, the Swift source the client compiles them from, and the explanation for
/// people (an overview, and each kind's evidence).
///
/// Every comparison is written one way: a figure against the recommendation's, as
/// `value ÷ recommended − 1` ("+3.4 %": the preset downloads 3.4 % more than the recommendation).
public enum TuningReport {
    // MARK: JSON

    /// `recommended-defaults.json`: each kind's tiers, what they are expected to do, the presets
    /// beside them and whether the policy matters.
    public static func json(_ answers: [TuningAnswer], command: String) -> String {
        """
        {
          "generated_by": \(quoted(command)),
          "kinds": [\(answers.map { "\n" + json($0) }.joined(separator: ","))
          ]
        }

        """
    }

    private static func json(_ answer: TuningAnswer) -> String {
        let recommendation = answer.recommendation
        let request = recommendation.request
        let expected = answer.recommended
        func names(_ candidates: [Tuner.Candidate]) -> String {
            "[" + candidates.map { quoted($0.tier.policy.rawValue) }.joined(separator: ", ") + "]"
        }
        // At one disk size: the best disk-only client and LRU's (its best lifetime).
        func worthJSON(_ worth: TuningAnswer.PolicyWorth) -> String {
            """
            {"capacity_bytes": \(worth.capacity), "best": \(quoted(worth.best.tier.policy.rawValue)), \
            "best_bytes_downloaded": \(worth.best.bytesDownloaded), "lru_bytes_downloaded": \(worth.lru.bytesDownloaded), \
            "lru_ttl_s": \(ttlSeconds(worth.lru.tier))}
            """
        }
        let matters = answer.policyMatters.map(worthJSON)
        let lru = answer.policyWorth.first { $0.capacity == recommendation.disk.tier.capacity }
        let presets = zip(answer.atOwnBudget.dropFirst(), answer.atRecommendedSize).map { own, resized in
            """
            {"client": \(quoted(own.client.name)), "memory": \(tier(own.client.memory)), \
            "disk": \(tier(own.client.disk)), \(figures(own)), \
            "at_recommended_size": {\(figures(resized))}}
            """
        }
        return """
                {
                  "kind": \(quoted(answer.kind)),
                  "summary": \(quoted(answer.summary)),
                  "traces": [\(recommendation.traces.map(quoted).joined(separator: ", "))],
                  "working_set_bytes": [\(answer.workingSets.map(String.init).joined(separator: ", "))],
                  "memory_budget_bytes": \(request.memoryBudget),
                  "disk_budget_bytes": \(request.diskBudget),
                  "bytes_margin": \(Report.decimal(request.bytesMargin, places: 4)),
                  "latency_margin_ms": \(Report.decimal(request.latencyMargin, places: 3)),
                  "memory_margin": \(Report.decimal(request.memoryMargin, places: 4)),
                  "memory": \(tier(recommendation.memory.tier)),
                  "disk": \(tier(recommendation.disk.tier)),
                  "expected": {\(figures(expected)), \
            "memory_hit_ratio": \(Report.decimal(expected.memoryHitRatio, places: 6)), \
            "pinned_memory_peak_bytes": \(expected.pinnedMemoryPeak), \
            "pinned_disk_peak_bytes": \(expected.pinnedDiskPeak)},
                  "disk_ties": \(names(answer.diskTies)),
                  "memory_ties": \(names(answer.memoryTies)),
                  "lru_at_disk": \(lru.map(worthJSON) ?? "null"),
                  "policy_matters": [\(matters.map { "\n        " + $0 }.joined(separator: ","))\(matters.isEmpty ? "" : "\n      ")],
                  "presets": [\(presets.map { "\n        " + $0 }.joined(separator: ","))
                  ]
                }
            """
    }

    private static func figures(_ summary: ClientSummary) -> String {
        """
        "bytes_downloaded": \(summary.bytesDownloaded), "hit_ratio": \(Report.decimal(summary.hitRatio, places: 6)), \
        "byte_hit_ratio": \(Report.decimal(summary.byteHitRatio, places: 6)), \
        "latency_p95_ms": \(Report.decimal(summary.latencyP95, places: 3))
        """
    }

    private static func tier(_ tier: TierConfiguration?) -> String {
        guard let tier else { return "null" }
        return """
            {"policy": "\(tier.policy.rawValue)", "capacity_bytes": \(tier.capacity), \
            "ttl_s": \(ttlSeconds(tier)), "ttl_mode": "\(tier.ttlMode.rawValue)"}
            """
    }

    private static func ttlSeconds(_ tier: TierConfiguration) -> String {
        tier.ttl.map { Report.decimal(Double($0) / 1000, places: 0) } ?? "null"
    }

    // MARK: Swift

    /// The Swift source that makes the answers the client's defaults: `recommended(for:)` for
    /// each kind tuned, and `recommended` (what `ImagePipeline` runs when given no configuration)
    /// for the recipe API's own kind, the small catalog (or the first answer, for custom traces).
    public static func swiftSource(_ answers: [TuningAnswer], jsonPath: String) -> String {
        func tier(_ tier: TierConfiguration) -> String {
            var arguments = ["policy: .\(caseName(tier.policy))", "capacity: \(Report.underscored(tier.capacity))"]
            if let ttl = tier.ttl {
                arguments += ["ttl: \(Report.underscored(Int(ttl)))", "ttlMode: .\(tier.ttlMode.rawValue)"]
            }
            return "TierConfiguration(\(arguments.joined(separator: ", ")))"
        }
        // The configuration's lines, the first after `=`, the rest at `indent`.
        func configuration(_ answer: TuningAnswer, indent: String) -> String {
            [
                "ClientConfiguration(",
                "\(indent)    name: \"recommended\",",
                "\(indent)    memory: \(tier(answer.recommendation.memory.tier)),",
                "\(indent)    disk: \(tier(answer.recommendation.disk.tier)))",
            ].joined(separator: "\n")
        }
        let kinds = answers.compactMap { answer in AppKind(rawValue: answer.kind).map { ($0, answer) } }
        let home = answers.first { $0.kind == AppKind.smallCatalog.rawValue } ?? answers[0]
        var lines = [
            "// Generated by `cachelab tune` with \(jsonPath): do not edit by hand; run the tuner again.",
            "import ClientModel",
            "",
            "extension ClientConfiguration {",
            "    /// The image cache `cachelab tune` recommends for the recipe list (the \(home.kind) kind):",
            "    /// memory \(home.recommendation.memory.label), disk \(home.recommendation.disk.label). `ImagePipeline` uses it",
            "    /// when given no configuration.",
            "    public static let recommended = "
                + (AppKind(rawValue: home.kind).map { "recommended(for: .\(caseName($0)))" }
                    ?? configuration(home, indent: "    ")),
            "",
            "    /// The image cache `cachelab tune` recommends for `kind` of app"
                + (kinds.count == AppKind.allCases.count ? "." : " (the recipe list's for a kind not tuned)."),
            "    public static func recommended(for kind: AppKind) -> ClientConfiguration {",
            "        switch kind {",
        ]
        for kind in AppKind.allCases {
            guard let answer = kinds.first(where: { $0.0 == kind })?.1 else { continue }
            lines += [
                "        case .\(caseName(kind)):",
                "            // memory \(answer.recommendation.memory.label), disk \(answer.recommendation.disk.label)",
                "            \(configuration(answer, indent: "            "))",
            ]
        }
        if kinds.count < AppKind.allCases.count { lines += ["        default:", "            recommended"] }
        lines += ["        }", "    }", "}", ""]
        return lines.joined(separator: "\n")
    }

    /// The Swift case a name is written as: its command-line name, a hyphenated one in camel
    /// case (`wtinylfu-adaptive` is `.wtinylfuAdaptive`, `small-catalog` `.smallCatalog`).
    static func caseName(_ policy: PolicyKind) -> String { caseName(policy.rawValue) }
    static func caseName(_ kind: AppKind) -> String { caseName(kind.rawValue) }

    static func caseName(_ name: String) -> String {
        let words = name.split(separator: "-")
        return words.enumerated().map { index, word in
            index == 0 ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
    }

    // MARK: Markdown

    /// The evidence file of one kind: `recommended-defaults-KIND.md`.
    public static func fileName(of answer: TuningAnswer) -> String { "recommended-defaults-\(answer.kind).md" }

    /// `recommended-defaults.md`: each kind's answer in a row, and where its evidence is.
    public static func overview(_ answers: [TuningAnswer], command: String) -> String {
        var out = """
            # Recommended image-cache defaults

            Made by `\(command)`: one answer per kind of app, each tuned on its own traces (the DocC \
            article Workloads gives every parameter of the built-in ones and its source). "Policy" \
            says whether the choice of disk policy matters at the recommended size: when the \
            candidates within \(margin(answers)) of the best tie, any of them will do.

            | kind | memory | disk | downloaded | p95 | hit ratio | policy | evidence |
            |---|---|---|---:|---:|---:|---|---|

            """
        for answer in answers {
            let recommendation = answer.recommendation
            out += """
                | \(answer.kind) | \(recommendation.memory.label) | \(recommendation.disk.label) | \
                \(Report.bytes(answer.recommended.bytesDownloaded)) | \
                \(Report.decimal(answer.recommended.latencyP95, places: 1)) ms | \
                \(Report.percent(answer.recommended.hitRatio)) | \(policyVerdict(answer)) | \
                [\(fileName(of: answer))](\(fileName(of: answer))) |

                """
        }
        for answer in answers {
            out += "\n**\(answer.kind)** (\(answer.summary)). \(presetVerdict(answer)) \(worthVerdict(answer))\n"
        }
        return out
    }

    private static func margin(_ answers: [TuningAnswer]) -> String {
        let margins = Set(answers.map(\.recommendation.request.bytesMargin))
        return margins.count == 1
            ? "\(Report.decimal(margins.first! * 100, places: 1)) % of the bytes" : "the bytes margin"
    }

    /// Whether the disk policy matters at the recommended size, in a few words.
    public static func policyVerdict(_ answer: TuningAnswer) -> String {
        let ties = answer.diskTies.map(\.tier.policy.rawValue)
        if ties.contains(PolicyKind.lru.rawValue) {
            return "ties: any of \(ties.joined(separator: ", ")); keep your library's LRU"
        }
        guard let lru = answer.policyWorth.first(where: { $0.capacity == answer.recommendation.disk.tier.capacity })
        else { return ties.joined(separator: ", ") }
        return
            "\(ties.joined(separator: ", ")); LRU downloads \(relative(lru.lru.bytesDownloaded, to: lru.best.bytesDownloaded)) against the best"
    }

    /// The preset that downloads the fewest bytes at its own budget, against the recommendation.
    public static func presetVerdict(_ answer: TuningAnswer) -> String {
        let presets = answer.atOwnBudget.dropFirst()
        guard
            let fewest = presets.min(by: { ($0.bytesDownloaded, $0.latencyP95) < ($1.bytesDownloaded, $1.latencyP95) })
        else { return "" }
        let recommended = answer.recommended
        let ties = presets.filter { $0.bytesDownloaded == fewest.bytesDownloaded }.map(\.client.name)
        let who = ties.count == 1 ? "\(fewest.client.name) downloads" : "\(ties.joined(separator: ", ")) download"
        return """
            Of the libraries' defaults at their own budgets, \(who) the fewest bytes, \
            \(Report.bytes(fewest.bytesDownloaded)) (\(relative(fewest.bytesDownloaded, to: recommended.bytesDownloaded)) \
            against the recommendation's \(Report.bytes(recommended.bytesDownloaded)), p95 \
            \(signed(fewest.latencyP95 - recommended.latencyP95)) ms) in \(footprint(fewest.client)); the \
            recommendation takes \(footprint(recommended.client)).
            """
    }

    /// Where the best disk policy saves the bytes margin or more of what LRU downloads.
    public static func worthVerdict(_ answer: TuningAnswer) -> String {
        let margin = Report.decimal(answer.recommendation.request.bytesMargin * 100, places: 1)
        let matters = answer.policyMatters
        guard let first = matters.first, let last = matters.last else {
            return "At no disk size tried does the best policy save \(margin) % of what LRU downloads."
        }
        let place =
            matters.count == 1
            ? "at \(Report.bytes(first.capacity))"
            : "at \(matters.count) of the disk sizes tried, from \(Report.bytes(first.capacity)) to \(Report.bytes(last.capacity))"
        let most = matters.max { $0.saving < $1.saving }!
        return """
            The best disk policy saves \(margin) % or more of what LRU downloads \(place) (the most: \
            \(most.best.tier.policy.rawValue) at \(Report.bytes(most.capacity)), \
            \(Report.decimal(most.saving * 100, places: 1)) %).
            """
    }

    /// One kind's evidence: why these tiers, the presets beside them, whether the policy matters,
    /// the curves the picks were made from and every policy at the chosen sizes.
    public static func markdown(_ answer: TuningAnswer, command: String) -> String {
        let recommendation = answer.recommendation
        let request = recommendation.request
        let bounds = recommendation.bounds
        let bytesMargin = Report.decimal(request.bytesMargin * 100, places: 1)
        let latencyMargin = Report.decimal(request.latencyMargin, places: 1)
        let traces = zip(recommendation.traces, answer.workingSets).map { "\($0) (\(Report.bytes($1)))" }
        var out = """
            # \(answer.kind): recommended image-cache defaults

            \(answer.summary.prefix(1).uppercased() + answer.summary.dropFirst()). Made by `\(command)` \
            on \(Report.counted(recommendation.traces.count, "trace")) and their working sets (every photo \
            once): \(traces.joined(separator: ", ")). Bytes downloaded are summed over them, ratios and p95 \
            latencies averaged with each trace weighted equally.

            **Disk tier: \(recommendation.disk.label)** — the smallest disk whose client downloads at \
            most \(bytesMargin) % more than the fewest bytes any disk from \
            \(Report.bytes(request.smallestDisk)) to \(Report.bytes(request.diskBudget)) downloads \
            (\(recommendation.bestDisk.label): \(Report.bytes(bounds.fewestBytes))), with a p95 latency at \
            most \(latencyMargin) ms above the lowest (\(Report.decimal(bounds.lowestP95, places: 1)) ms). \
            \(tieSentence(answer))

            **Memory tier: \(recommendation.memory.label)** — in front of that disk, the smallest memory \
            whose client stays within the same bounds and leaves at most \
            \(Report.decimal(request.memoryMargin * 100, places: 1)) % more requests to the disk and the \
            network than the best memory tier from \(Report.bytes(request.smallestMemory)) to \
            \(Report.bytes(request.memoryBudget)) (\(recommendation.bestMemory.label) serves \
            \(Report.percent(recommendation.bestMemory.memoryShare)) from memory); this one serves \
            \(Report.percent(recommendation.memory.memoryShare)). Memory tiers that serve as much here: \
            \(answer.memoryTies.map(\.tier.policy.rawValue).joined(separator: ", ")).

            Every candidate is replayed as the client (relaunches empty memory and rebuild the disk as \
            the real pipeline does). Tried: \(request.policies.map(\.rawValue).joined(separator: ", ")); \
            disk lifetimes \(request.diskTTLs.map { $0.map { Quantity.durationLabel(milliseconds: $0) } ?? "none" }.joined(separator: ", ")) \
            (sliding); capacities in steps of 1.5× and 2×.

            ## Against the libraries' defaults

            Each preset as its library sizes itself on the device, at its own budget, and with the \
            recommended tiers' capacities (what its policies, lifetimes and reactions to app events do \
            at the same size). "vs rec." is the preset's bytes against the recommendation's \
            (\(Report.bytes(answer.recommended.bytesDownloaded)), p95 \
            \(Report.decimal(answer.recommended.latencyP95, places: 1)) ms, hit ratio \
            \(Report.percent(answer.recommended.hitRatio)), \(Report.percent(answer.recommended.memoryHitRatio)) \
            served from memory; favourites pinned at most \(Report.bytes(answer.recommended.pinnedMemoryPeak)) in \
            memory and \(Report.bytes(answer.recommended.pinnedDiskPeak)) on disk, beside the capacities).

            \(presetVerdict(answer))

            | client | memory | disk | downloaded | vs rec. | p95 latency | hit ratio | served from memory | at the recommended size: downloaded | vs rec. |
            |---|---|---|---:|---:|---:|---:|---:|---:|---:|

            """
        for (own, resized) in zip(answer.atOwnBudget.dropFirst(), answer.atRecommendedSize) {
            out += """
                | \(own.client.name) | \(tierLabel(own.client.memory)) | \(tierLabel(own.client.disk)) | \
                \(Report.bytes(own.bytesDownloaded)) | \(relative(own.bytesDownloaded, to: answer.recommended.bytesDownloaded)) | \
                \(Report.decimal(own.latencyP95, places: 1)) ms | \(Report.percent(own.hitRatio)) | \
                \(Report.percent(own.memoryHitRatio)) | \(Report.bytes(resized.bytesDownloaded)) | \
                \(relative(resized.bytesDownloaded, to: answer.recommended.bytesDownloaded)) |

                """
        }
        out += """

            ## Does the disk policy matter?

            \(worthVerdict(answer)) At each disk size tried, the best disk-only client and LRU's (its best \
            lifetime), the order every library's disk evicts in:

            | capacity | best | downloaded | LRU | downloaded | the best saves |
            |---:|---|---:|---|---:|---:|

            """
        for worth in answer.policyWorth {
            out += """
                | \(Report.bytes(worth.capacity)) | \(emphasized(worth.best, recommendation.disk)) | \
                \(Report.bytes(worth.best.bytesDownloaded)) | \(worth.lru.label) | \(Report.bytes(worth.lru.bytesDownloaded)) | \
                \(Report.decimal(worth.saving * 100, places: 1)) % |

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

    /// Which disk policies tie with the recommended one at its size, and what LRU downloads there.
    static func tieSentence(_ answer: TuningAnswer) -> String {
        let recommendation = answer.recommendation
        let ties = answer.diskTies.map(\.tier.policy.rawValue)
        let margin = Report.decimal(recommendation.request.bytesMargin * 100, places: 1)
        let lead =
            "It downloads \(Report.bytes(recommendation.disk.bytesDownloaded)), p95 \(Report.decimal(recommendation.disk.latencyP95, places: 1)) ms."
        if ties.contains(PolicyKind.lru.rawValue) {
            return
                "\(lead) At this size the disk policy does not matter: \(ties.joined(separator: ", ")) all download within \(margin) % of the best; keep your library's LRU."
        }
        guard let worth = answer.policyWorth.first(where: { $0.capacity == recommendation.disk.tier.capacity }) else {
            return lead
        }
        let others = ties.count > 1 ? " (\(ties.joined(separator: ", ")) tie within \(margin) %)" : ""
        return
            "\(lead) At this size the policy matters: LRU (\(worth.lru.label)) downloads \(Report.bytes(worth.lru.bytesDownloaded)), \(relative(worth.lru.bytesDownloaded, to: worth.best.bytesDownloaded)) against the best\(others)."
    }

    // MARK: Terminal

    /// One kind's comparison as the terminal shows it at the end of a tune: each client's tiers,
    /// the bytes it downloads and its p95 against the recommendation's, its hit ratio.
    public static func table(_ answer: TuningAnswer) -> String {
        let recommended = answer.recommended
        var rows = [["client", "memory", "disk", "downloaded", "vs recommended", "p95", "hit ratio"]]
        for (index, row) in answer.atOwnBudget.enumerated() {
            let isRecommended = index == 0
            rows.append([
                isRecommended ? "recommended" : row.client.name, tierLabel(row.client.memory),
                tierLabel(row.client.disk), Report.bytes(row.bytesDownloaded),
                isRecommended ? "" : relative(row.bytesDownloaded, to: recommended.bytesDownloaded),
                Report.decimal(row.latencyP95, places: 1) + " ms", Report.percent(row.hitRatio),
            ])
        }
        return Report.render(rows)
    }

    // MARK: Pieces

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
