import CacheEngine

/// How `--admission` is written: the lab parses it; the engine only holds the filter.
extension AdmissionFilter {
    /// Parses `bloom`, `size:1MB`, `prob:0.5`, `sizeprob:1e-6`, `adaptsize`, `adaptsize:50000`.
    public init(parsing text: String) throws(AdmissionFilterError) {
        let parts = text.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace() }
        let name = parts[0].lowercased()
        let parameter = parts.count == 2 ? parts[1] : nil
        func number(_ expected: String) throws(AdmissionFilterError) -> Double {
            guard let parameter, let value = Double(parameter), value.isFinite else {
                throw AdmissionFilterError(text: text, expected: expected)
            }
            return value
        }
        switch name {
        case "bloom":
            guard parameter == nil else { throw AdmissionFilterError(text: text, expected: "bloom, with no parameter") }
            self = .bloom
        case "size":
            guard let parameter, case .absolute(let bytes)? = try? CapacitySpec(parsing: parameter), bytes > 0 else {
                throw AdmissionFilterError(text: text, expected: "size:N with N a size above 0, e.g. size:1MB")
            }
            self = .size(below: bytes)
        case "prob":
            let probability = try number("prob:P with 0 < P ≤ 1, e.g. prob:0.5")
            guard probability > 0, probability <= 1 else {
                throw AdmissionFilterError(text: text, expected: "prob:P with 0 < P ≤ 1, e.g. prob:0.5")
            }
            self = .probability(probability)
        case "sizeprob":
            let exponent = try number("sizeprob:E with 0 < E ≤ 1, e.g. sizeprob:1e-6")
            guard exponent > 0, exponent <= 1 else {
                throw AdmissionFilterError(text: text, expected: "sizeprob:E with 0 < E ≤ 1, e.g. sizeprob:1e-6")
            }
            self = .sizeProbability(exponent: exponent)
        case "adaptsize":
            guard let parameter else {
                self = .adaptSize(interval: Self.adaptSizeInterval)
                return
            }
            guard let interval = Int(parameter), interval > 0 else {
                throw AdmissionFilterError(text: text, expected: "adaptsize or adaptsize:N with N requests above 0")
            }
            self = .adaptSize(interval: interval)
        default:
            throw AdmissionFilterError(
                text: text, expected: "one of " + Self.names.map(\.0).joined(separator: ", "))
        }
    }
}

/// An `--admission` that could not be understood.
public struct AdmissionFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var expected: String
    public var description: String { "admission \"\(text)\" is not \(expected)" }
}
