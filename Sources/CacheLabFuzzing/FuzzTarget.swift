/// What the fuzzers throw inputs at, and what must hold for every input.
///
/// Each target takes arbitrary bytes and returns the properties they broke, as sentences; an
/// empty list means the input was handled well: parsed into something that passes every check, or
/// refused with an error that says where. A crash (an overflow, an index out of range) is the
/// other way to fail; a fuzzer catches it, and the corpus test replays every input that once
/// caused one.
///
/// The same code runs under libFuzzer (`scripts/fuzz`, through the `cachelab-fuzz` executable)
/// and in `swift test`, which replays the kept corpus in `Tests/FuzzCorpus/<target>/`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The trace readers, every format, then the simulator on what they read.
    case traces
    /// The recipe API's JSON, as the client decodes it.
    case recipes

    /// The properties `bytes` broke; empty when it was handled well.
    public func check(_ bytes: [UInt8]) -> [String] {
        switch self {
        case .traces: TraceChecks.check(bytes)
        case .recipes: RecipeChecks.check(bytes)
        }
    }

    /// What the target exercises, for `cachelab-fuzz --help`.
    public var summary: String {
        switch self {
        case .traces:
            "trace readers (cachelab, csv with and without a column spec, txt, oracle-general), "
                + "round trips through the writer, and replays of what they read"
        case .recipes: "the recipe list JSON, decoded as the client decodes it, and round trips"
        }
    }
}
