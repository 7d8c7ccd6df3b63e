/// A quantity that could not be understood, with what was expected instead.
public struct QuantityError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var expected: String
    public var description: String { "\"\(text)\" is not \(expected)" }
}
