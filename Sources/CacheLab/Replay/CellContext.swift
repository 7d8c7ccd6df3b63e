/// What a cell's replay is told of the trace when it is built.
public struct CellContext: Sendable {
    /// The trace's name, for the results.
    public var name: String

    public init(name: String) {
        self.name = name
    }
}
