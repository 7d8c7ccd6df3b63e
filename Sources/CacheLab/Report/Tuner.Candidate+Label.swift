extension Tuner.Candidate {
    /// The tier as the tuning report and the client's defaults name it: `gdsf 8.39 MB ttl 1d`.
    public var label: String {
        let ttl = tier.ttl.map { " ttl \(Quantity.durationLabel(milliseconds: $0))" } ?? ""
        return "\(tier.policy.rawValue) \(Report.bytes(tier.capacity))\(ttl)"
    }
}
