import CacheEngine

/// Renders miss-ratio curves: CSV with one line per (policy, capacity), or a table with one
/// row per capacity and one column per policy.
extension Report {
    /// The columns of `cachelab mrc --format csv`, in their stable order.
    public static let curveColumns = [
        "trace", "policy", "size_mode", "capacity", "method", "requests", "hits", "misses", "hit_ratio", "miss_ratio",
        "bytes_requested", "bytes_hit", "byte_hit_ratio", "byte_miss_ratio",
    ]

    /// A header and one line per point.
    public static func curveCSV(_ points: [CurvePoint]) -> String {
        var lines = [curveColumns.joined(separator: ",")]
        for point in points {
            let fields = [
                csvField(point.trace), point.policy.rawValue, point.sizeMode.rawValue, String(point.capacity),
                csvField(point.method.description), String(point.requests), String(point.hits), String(point.misses),
                decimal(point.hitRatio, places: 6), decimal(point.missRatio, places: 6), String(point.bytesRequested),
                String(point.bytesHit), decimal(point.byteHitRatio, places: 6), decimal(point.byteMissRatio, places: 6),
            ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Miss ratios (and byte miss ratios) as a table: capacities down, policies across.
    public static func curveTable(_ points: [CurvePoint]) -> String {
        var policies: [PolicyKind] = []
        var capacities: [Int] = []
        var byKey: [Int: [PolicyKind: CurvePoint]] = [:]
        for point in points {
            if !policies.contains(point.policy) { policies.append(point.policy) }
            if byKey[point.capacity] == nil { capacities.append(point.capacity) }
            byKey[point.capacity, default: [:]][point.policy] = point
        }
        capacities.sort()
        let unit = points.first?.sizeMode == .unit ? "capacity (objects)" : "capacity"
        var rows = [[unit] + policies.map { "\($0.rawValue) miss" } + policies.map { "\($0.rawValue) byte miss" }]
        for capacity in capacities {
            let label = points.first?.sizeMode == .unit ? grouped(capacity) : bytes(capacity)
            let cells = byKey[capacity] ?? [:]
            rows.append(
                [label] + policies.map { cells[$0].map { percent($0.missRatio) } ?? "-" }
                    + policies.map { cells[$0].map { percent($0.byteMissRatio) } ?? "-" })
        }
        return render(rows)
    }
}
