import ArgumentParser
import CacheEngine

/// Finds a name a user typed among a command's choices: case-insensitively, and with a
/// "did you mean" for a near miss (a typo of one or two letters, or a prefix).
enum NameLookup {
    /// The choice `name` names, ignoring case, or nil.
    static func find<Choice>(_ name: String, in choices: [Choice], by label: (Choice) -> String) -> Choice? {
        let lowered = name.lowercased()
        return choices.first { label($0).lowercased() == lowered }
    }

    /// The choice whose label `name` most nearly spells, when one is near enough to be the one
    /// meant: within two edits (one for a name of four letters or fewer), or a unique prefix.
    static func nearest(to name: String, among labels: [String]) -> String? {
        let lowered = name.lowercased()
        let prefixed = labels.filter { $0.hasPrefix(lowered) }
        if prefixed.count == 1 { return prefixed[0] }
        let allowed = lowered.count <= 4 ? 1 : 2
        let scored = labels.map { (label: $0, distance: distance(lowered, $0)) }.filter { $0.distance <= allowed }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        // Two choices equally near: neither is the one meant.
        return scored.filter { $0.distance == best.distance }.count == 1 ? best.label : nil
    }

    /// "unknown policy 'sieeve' (did you mean sieve?); choose from ..." as one line.
    static func unknown(_ what: String, _ name: String, labels: [String], extra: String = "") -> String {
        let hint = nearest(to: name, among: labels).map { " (did you mean \($0)?)" } ?? ""
        return "unknown \(what) '\(name)'\(hint); choose from \(labels.joined(separator: ", "))\(extra)"
    }

    /// Levenshtein distance over characters (names are short).
    static func distance(_ a: String, _ b: String) -> Int {
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension PolicyKind {
    /// The policy `name` names, ignoring case; an unknown one is refused with the reason, a
    /// near name, or the admission option for `lru+bloom` (how results label a filtered policy).
    static func named(_ name: String) throws -> PolicyKind {
        if let kind = NameLookup.find(name, in: PolicyKind.allCases, by: \.rawValue) { return kind }
        if let plus = name.firstIndex(where: { $0 == "+" || $0 == ":" }),
            let policy = NameLookup.find(String(name[..<plus]), in: PolicyKind.allCases, by: \.rawValue)
        {
            let filter = name[name.index(after: plus)...]
            throw ValidationError(
                "unknown policy '\(name)': a filter in front of a policy is its own option, --policy \(policy.rawValue) --admission \(filter)"
            )
        }
        throw ValidationError(
            NameLookup.unknown("policy", name, labels: PolicyKind.allCases.map(\.rawValue), extra: ", or all"))
    }
}
