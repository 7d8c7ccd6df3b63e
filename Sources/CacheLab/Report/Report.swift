import CacheEngine
import ClientModel

/// Renders run results as CSV (for scripts) or as a table (for people).
public enum Report {
    /// What a report prints of a run's latency: its summary, or zeros for a run that did not model
    /// it (`--no-latency`).
    ///
    /// - Parameter result: the run.
    public static func latency(of result: RunResult) -> LatencySummary { result.latency ?? LatencySummary() }

    /// The CSV header line, without a newline.
    public static var csvHeader: String {
        ReportColumn.allCases.map(\.rawValue).joined(separator: ",")
    }

    /// One CSV line for `result`, without a newline. Values never contain commas except the trace
    /// name, which is quoted when it does.
    public static func csvRow(_ result: RunResult) -> String {
        ReportColumn.allCases.map { csvField($0.value(of: result)) }.joined(separator: ",")
    }

    /// `value` as one CSV field: quoted (RFC 4180) when it holds a comma or a quote.
    public static func csvField(_ value: String) -> String {
        guard value.contains(",") || value.contains("\"") else { return value }
        return "\"" + value.replacingAll("\"", with: "\"\"") + "\""
    }

    /// A header and one line per result.
    public static func csv(_ results: [RunResult]) -> String {
        ([csvHeader] + results.map(csvRow)).joined(separator: "\n") + "\n"
    }

    /// A table for a terminal: one column per run, one row per measure.
    public static func table(_ results: [RunResult]) -> String {
        var rows: [[String]] = [[""] + results.map(\.label)]
        func add(_ label: String, _ value: (RunResult) -> String) {
            rows.append([label] + results.map(value))
        }
        add("trace") { $0.trace }
        func size(_ tier: TierConfiguration?, _ mode: SizeMode) -> String {
            guard let tier else { return "none" }
            let amount =
                tier.capacity >= CacheConfiguration.unlimited
                ? "unlimited" : mode == .unit ? "\(grouped(tier.capacity)) objects" : bytes(tier.capacity)
            let ttl =
                tier.ttl.map { ", expires \(decimal(Double($0) / 1000, places: 0)) s \(tier.ttlMode.rawValue)" } ?? ""
            return "\(tier.policy.rawValue) \(amount)\(ttl)"
        }
        let clients = results.contains { $0.client != nil }
        if clients {
            add("memory tier") { size($0.tiers.memory, $0.cache.sizeMode) }
            add("disk tier") { size($0.tiers.disk, $0.cache.sizeMode) }
        } else {
            add("capacity") { result in
                result.cache.sizeMode == .unit
                    ? "\(grouped(result.cache.capacity)) objects" : bytes(result.cache.capacity)
            }
            add("ttl") { result in
                result.cache.ttl.map { "\(decimal(Double($0) / 1000, places: 0)) s \(result.cache.ttlMode.rawValue)" }
                    ?? "none"
            }
            add("trim to") { decimal($0.cache.trimRatio * 100, places: 0) + "% of capacity" }
        }
        add("mode") { $0.mode.rawValue }
        add("network / tier") { "\($0.configuration.network.rawValue) / \($0.configuration.tier.rawValue)" }
        add("requests") { grouped($0.requests) }
        add("hits") { grouped($0.hits) }
        if clients {
            add("memory / disk hits") { "\(grouped($0.memoryHits)) / \(grouped($0.diskHits))" }
        }
        if clients {
            add("delayed hits (latency share)") {
                "\(grouped($0.delayedHits)) (\(percent($0.client?.delayedLatencyShare ?? 0)))"
            }
        }
        add("misses") { grouped($0.misses) }
        if results.contains(where: { ($0.client?.droppedPrefetches ?? 0) > 0 }) {
            // Never made, so not among the requests.
            add("prefetches dropped") { grouped($0.client?.droppedPrefetches ?? 0) }
        }
        add("hit ratio") { percent($0.hitRatio) }
        if results.contains(where: { $0.optimalHits != nil }) {
            add("vs optimum") { result in
                guard let optimal = result.optimalHits else { return "-" }
                return "\(result.optRatio.map(percent) ?? "-") (belady \(grouped(optimal)) hits)"
            }
        }
        add("byte hit ratio") { percent($0.byteHitRatio) }
        add("bytes requested") { bytes($0.bytesRequested) }
        add("bytes downloaded") { bytes($0.bytesDownloaded) }
        add("bytes saved") { bytes($0.bytesSaved) }
        if results.contains(where: { !$0.admissionLabel.isEmpty }) {
            add("admission (misses refused)") { result in
                result.admissionLabel.isEmpty ? "none" : "\(result.admissionLabel) (\(grouped(result.notAdmitted)))"
            }
        }
        add("evictions") { grouped($0.evictions) }
        add("expirations") { grouped($0.expirations) }
        add("relaunches") { grouped($0.relaunches) }
        if clients {
            add("memory cost") { $0.client?.memoryCost.rawValue ?? "-" }
            add("memory / disk peak") { result in
                guard let client = result.client else { return "- / -" }
                return "\(client.memory == nil ? "-" : bytes(client.memoryPeakCost)) / "
                    + (client.disk == nil ? "-" : bytes(client.diskPeakBytes))
            }
        }
        if results.contains(where: { ($0.client?.favouriteEvents ?? 0) > 0 }) {
            add("pinned memory / disk (peak)") {
                let pins = $0.client?.pins ?? PinSummary()
                return "\(bytes(pins.peakMemoryBytes)) / \(bytes(pins.peakDiskBytes))"
            }
            add("favourite events / pins refused") {
                "\(grouped($0.client?.favouriteEvents ?? 0)) / \(grouped($0.client?.pins.refusals ?? 0))"
            }
        }
        add("latency p50") { decimal(latency(of: $0).p50, places: 2) + " ms" }
        add("latency p95") { decimal(latency(of: $0).p95, places: 2) + " ms" }
        add("latency p99") { decimal(latency(of: $0).p99, places: 2) + " ms" }
        add("latency mean") { decimal(latency(of: $0).mean, places: 2) + " ms" }
        if results.contains(where: { $0.metadataBytes != nil }) {
            add("metadata") { result in
                guard let total = result.metadataBytes, let entries = result.entries else { return "-" }
                let each = entries == 0 ? "" : " (\(grouped(total / entries)) B per entry)"
                return bytes(total) + each
            }
        }
        if results.contains(where: { $0.mode == .live }) {
            func sourceLatency(_ source: RequestOutcome) -> (RunResult) -> String {
                { result in
                    result.live?.latencyBySource[source].map {
                        "\(decimal($0.p50, places: 2)) / \(decimal($0.p99, places: 2)) ms"
                    } ?? "-"
                }
            }
            add("memory p50 / p99", sourceLatency(.memory))
            add("disk p50 / p99", sourceLatency(.disk))
            add("delayed p50 / p99", sourceLatency(.delayed))
            add("network p50 / p99", sourceLatency(.network))
            add("failed requests") { $0.live.map { grouped($0.failures) } ?? "-" }
            add("server requests") { $0.live.map { grouped($0.serverRequests) } ?? "-" }
            add("server bytes") { $0.live.map { bytes($0.serverBytes) } ?? "-" }
        }
        return render(rows)
    }

    /// Aligns `rows` into columns two spaces apart: the first left-aligned, the others right-aligned.
    public static func render(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// `value` with exactly `places` decimals, no locale, no exponent.
    public static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "nan" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard places > 0 else { return sign + String(whole) }
        return sign + String(whole) + "." + String(fraction).leftPadded(to: places)
    }

    /// `0.4259` → "42.59%".
    public static func percent(_ ratio: Double) -> String { decimal(ratio * 100, places: 2) + "%" }

    /// A count and its noun, plural unless one: (1, "policy") → "1 policy", (12_000, "object") →
    /// "12,000 objects"; `plural` for nouns that do not take an s ("policies").
    public static func counted(_ value: Int, _ noun: String, plural: String? = nil) -> String {
        "\(grouped(value)) \(value == 1 ? noun : plural ?? noun + "s")"
    }

    /// 1234567 → "1,234,567".
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// Bytes in decimal units with the exact count: "1.50 MB (1,500,000 B)".
    public static func bytes(_ value: Int) -> String {
        let units = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "KB")]
        for (scale, name) in units where Double(value) >= scale {
            return "\(decimal(Double(value) / scale, places: 2)) \(name)"
        }
        return "\(value) B"
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
