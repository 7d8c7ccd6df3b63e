/// Files written whole or not at all: the bytes go to a hidden temporary file beside the path,
/// are flushed to the disk, and the file is renamed over the path. A write that fails or is killed
/// leaves the path as it was (at worst a hidden `.NAME.tmp-HOST-PID` beside it).
public enum AtomicFile {
    /// Writes `bytes` to `path`, replacing what was there.
    public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(TraceError) {
        let sink = try FileSink(path: path)
        var failure: TraceError?
        Array(bytes).withUnsafeBytes { buffer in
            do throws(TraceError) { try sink.write(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        try sink.finish()
    }

    /// Writes `text` (UTF-8) to `path`, replacing what was there.
    public static func write(_ text: String, to path: String) throws(TraceError) {
        try write(Array(text.utf8), to: path)
    }
}
