/// Generated traces with a known shape, for benchmarks and for tests that need volume.
public enum SyntheticTrace {
    /// Independent requests whose popularity follows a Zipf law, held in memory: `ZipfStream`
    /// read to the end (see `ZipfParameters` for the shape).
    public static func zipf(
        requests: Int,
        objects: Int,
        alpha: Double,
        seed: UInt64,
        minSize: Int = 1_000,
        maxSize: Int = 100_000
    ) -> Trace {
        zipf(
            ZipfParameters(
                requests: requests, objects: objects, alpha: alpha, seed: seed,
                sizes: .logUniform(min: minSize, max: maxSize)))
    }

    /// The trace `parameters` describe, held in memory.
    public static func zipf(_ parameters: ZipfParameters) -> Trace {
        // A generator never fails to read.
        try! ZipfStream(parameters).readAll()
    }
}
