import CacheLab
import ClientModel
import RecipeClient

/// The pipeline counts of every launch of a run, summed.
struct TierCounters {
    var stats = ImagePipeline.Stats()
    var evictions = 0
    var expirations = 0
    var notAdmitted = 0
    var pins = PinSummary()
    var peakMemoryCost = 0
    var peakDiskBytes = 0

    mutating func add(_ pipeline: ImagePipeline) async {
        stats += await pipeline.stats
        let holdings = await pipeline.holdings
        evictions += holdings.evictions
        expirations += holdings.expirations
        notAdmitted += holdings.notAdmitted
        pins.addLaunch(holdings.pins)
        peakMemoryCost = max(peakMemoryCost, holdings.peakMemoryCost)
        peakDiskBytes = max(peakDiskBytes, holdings.peakDiskBytes)
    }
}
