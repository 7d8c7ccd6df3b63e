import CacheLab

/// An error the CLI reports as one line and a non-zero exit.
struct CLIError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
    init(_ error: TraceError) { self.description = error.description }
    init(_ error: QuantityError) { self.description = error.description }
}
