/// Where a trace writer's bytes go, a block at a time: a file, its zstd compression, or memory.
protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError)
    /// Writes what is buffered and completes the output (renames a file into place).
    func finish() throws(TraceError)
}
