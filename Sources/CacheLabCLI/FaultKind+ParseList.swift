import ArgumentParser
import FixtureServer

extension FaultKind {
    /// Fault kinds from a comma-separated list, or every kind for "all".
    static func parseList(_ text: String) throws -> [FaultKind] {
        if text == "all" { return FaultKind.allCases }
        return try text.split(separator: ",").map { name in
            guard let kind = FaultKind(rawValue: String(name)) else {
                throw ValidationError(
                    "unknown fault '\(name)': use \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")) or all")
            }
            return kind
        }
    }
}
