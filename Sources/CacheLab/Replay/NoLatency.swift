/// Records nothing; compiled away.
struct NoLatency: LatencyRecording {
    @inline(__always) mutating func hit(size: Int) {}
    @inline(__always) mutating func miss(size: Int) {}
    func summary() -> LatencySummary? { nil }
}
