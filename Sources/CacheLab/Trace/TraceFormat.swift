/// The file formats cachelab reads and writes traces in.
///
/// `cachelab` is cachelab's own CSV with string keys and app events (see `traces/README.md`);
/// the other three are libCacheSim's formats, so its public traces replay here unchanged.
public enum TraceFormat: String, CaseIterable, Sendable {
    /// cachelab's own CSV: a header naming `time,key,size[,event]`, string keys, app events.
    case cachelab
    /// libCacheSim's CSV: numeric ids in columns chosen by a `CSVColumns` spec.
    case csv
    /// libCacheSim's plain text: one numeric id per line.
    case txt
    /// libCacheSim's binary `oracleGeneral`: 24-byte little-endian records.
    case oracleGeneral = "oracle-general"

    /// The format a file name implies, or `nil` when its extension names none.
    ///
    /// `.oracleGeneral.bin` and `.oracleGeneral` give `oracleGeneral`, `.txt` gives `txt` and
    /// `.csv` gives `csv` (case-insensitively); a final `.zst` (zstd) is looked past, so
    /// `x.oracleGeneral.zst` is `oracleGeneral`. A `.csv` file may still hold cachelab's own
    /// format: `TraceReader.read` with no format looks at its header to tell.
    public static func inferred(fromPath path: String) -> TraceFormat? {
        var lowered = path.lowercased()
        if lowered.hasSuffix(zstdSuffix) { lowered.removeLast(zstdSuffix.count) }
        if lowered.hasSuffix(".oraclegeneral.bin") || lowered.hasSuffix(".oraclegeneral") {
            return .oracleGeneral
        }
        if lowered.hasSuffix(".txt") {
            return .txt
        }
        if lowered.hasSuffix(".csv") {
            return .csv
        }
        return nil
    }

    /// The extension of a zstd-compressed file.
    public static let zstdSuffix = ".zst"

    /// Whether a file name says it is zstd-compressed (ends in `.zst`, in any case).
    public static func isCompressed(_ path: String) -> Bool {
        path.lowercased().hasSuffix(zstdSuffix)
    }
}
