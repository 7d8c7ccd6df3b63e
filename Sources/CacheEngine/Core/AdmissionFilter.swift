/// An admission filter in front of any eviction policy: whether a missed object is stored at all.
/// A refused miss is a miss that evicts nothing and stores nothing. Each equals libCacheSim
/// 0.3.5's admissioner of the same name, draw for draw (`LehmerRandom`):
///
/// - `bloom`: admits an object on its second miss (the first is remembered and refused);
///   libCacheSim's Bloom-filter admissioner keeps every id, so it never forgets or errs.
/// - `size:N`: admits an object smaller than N (bytes; objects in unit mode, where every object
///   is 1).
/// - `prob:P`: admits with probability P.
/// - `sizeprob:E`: admits an object of size s with probability e^(−E·s).
/// - `adaptsize`: AdaptSize (D. S. Berger, R. K. Sitaraman and M. Harchol-Balter, "AdaptSize:
///   Orchestrating the Hot Object Memory Cache in a Content Delivery Network", NSDI 2017):
///   probability e^(−s/c), its `c` re-tuned every `interval` requests from a Markov model of the
///   recent requests (`AdaptSizeModel`).
///
/// The filter is asked on a miss before the engine's own size check, as libCacheSim asks it, and
/// sees every request (AdaptSize counts them). Restoring entries a tier already held (a relaunch,
/// a favourite let go) does not ask it.
public enum AdmissionFilter: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    case bloom
    case size(below: Int)
    case probability(Double)
    case sizeProbability(exponent: Double)
    case adaptSize(interval: Int)

    /// AdaptSize's defaults in libCacheSim: re-tune every 30,000 requests.
    public static let adaptSizeInterval = 30_000

    /// The names `--admission` takes, and what each needs.
    public static let names = [
        ("bloom", "admit on the second miss"), ("size:N", "admit below N bytes"),
        ("prob:P", "admit with probability P"), ("sizeprob:E", "admit with probability e^(-E·size)"),
        ("adaptsize", "AdaptSize, its parameter re-tuned every 30,000 requests (adaptsize:N: every N)"),
    ]

    /// As `--admission` takes it.
    @inlinable public var description: String {
        switch self {
        case .bloom: "bloom"
        case .size(let below): "size:\(below)"
        case .probability(let probability): "prob:\(probability)"
        case .sizeProbability(let exponent): "sizeprob:\(exponent)"
        case .adaptSize(let interval):
            interval == Self.adaptSizeInterval ? "adaptsize" : "adaptsize:\(interval)"
        }
    }
}
