/// `size`: the way image libraries bound their disk caches. LRU order; when an insertion would
/// push the byte total past the limit, least recently used entries are evicted until the total,
/// new entry included, is at most the low-water mark `trimRatio × limit`.
///
/// The default ratio 0.7 is Nuke's `DataCache` sweep; Kingfisher and SDWebImage trim to 0.5.
/// The trimming itself lives in the engine (`Cache.makeRoom`), so `--trim-ratio` works with every
/// policy; this preset only chooses LRU and a ratio.
///
/// - Complexity: O(1) per request, plus O(1) per entry evicted by a trim.
public enum SizeBoundedPreset {
    public static let defaultTrimRatio = 0.7
}
