/// What one tier holds and has dropped, read at one moment: the part of `ImagePipeline.Holdings`
/// each tier gives.
struct TierCounts: Sendable {
    var count = 0
    var totalBytes = 0
    var evictions = 0
    var expirations = 0
    var notAdmitted = 0
    var pinnedBytes = 0
    var peakPinnedBytes = 0
    var pinRefusals = 0
    var peakCost = 0

    init() {}

    init(of tier: any ImageTier) {
        count = tier.count
        totalBytes = tier.totalBytes
        evictions = tier.evictions
        expirations = tier.expirations
        notAdmitted = tier.notAdmitted
        pinnedBytes = tier.pinnedBytes
        peakPinnedBytes = tier.peakPinnedBytes
        pinRefusals = tier.pinRefusals
        peakCost = tier.peakCost
    }
}
