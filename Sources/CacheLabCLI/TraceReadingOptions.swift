import ArgumentParser
import CacheLab

/// How to read a trace file, or which built-in scenario to make: shared by every command that
/// replays or inspects one trace.
struct TraceReadingOptions: ParsableArguments {
    @OptionGroup var file: TraceFileOptions

    /// The generated scenario to replay when no trace file is given.
    @OptionGroup(title: "Generated scenario (when no trace file is given)") var generator: ScenarioChoice

    /// The trace at `path` as a stream, or the built-in scenario when `path` is nil.
    func source(path: String?) throws -> TraceSource {
        if file.columns != nil, path == nil {
            throw ValidationError("--columns applies to a trace file in libCacheSim's CSV format")
        }
        guard let path else { return try generator.makeSource() }
        return try file.source(path: path)
    }

    /// The trace at `path`, or the built-in scenario, held in memory.
    func load(path: String?) throws -> Trace {
        try TraceLoading.load(source(path: path))
    }
}
