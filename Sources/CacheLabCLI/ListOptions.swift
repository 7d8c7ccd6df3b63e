import ArgumentParser
import CacheEngine
import CacheLab

/// The comma-separated lists and quantities the commands take.
enum ListOptions {
    /// `lru,arc` or `all` (every policy, or with `onlineOnly` every one a real client can run).
    static func policies(_ text: String, onlineOnly: Bool = false) throws -> [PolicyKind] {
        if text == "all" { return onlineOnly ? PolicyKind.online : PolicyKind.allCases }
        return try items(text, option: "--policy").map { name in
            guard let kind = PolicyKind(rawValue: name) else {
                // `lru+bloom` is how results label a policy behind an admission filter.
                if let plus = name.firstIndex(where: { $0 == "+" || $0 == ":" }),
                    let policy = PolicyKind(rawValue: String(name[..<plus]))
                {
                    let filter = name[name.index(after: plus)...]
                    throw ValidationError(
                        "unknown policy '\(name)': a filter in front of a policy is its own option, --policy \(policy.rawValue) --admission \(filter)"
                    )
                }
                throw ValidationError(
                    "unknown policy '\(name)'; choose from \(PolicyKind.allCases.map(\.rawValue).joined(separator: ", ")), or all"
                )
            }
            return kind
        }
    }

    /// The items of a comma-separated list, trimmed: an empty one (`lru,,sieve`, `,`) is refused
    /// rather than skipped.
    static func items(_ text: String, option: String) throws -> [String] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters() }
        guard !items.contains(where: \.isEmpty) else {
            throw ValidationError(
                items.count == 1 || items.allSatisfy(\.isEmpty)
                    ? "\(option) names nothing" : "\(option) has an empty item in '\(text)'")
        }
        return items
    }

    /// `none,1h,7d`: lifetimes in milliseconds, nil for none.
    static func ttls(_ text: String) throws -> [Int64?] {
        try items(text, option: "--ttl").map { text -> Int64? in
            if text == "none" { return nil }
            do { return try Quantity.milliseconds(parsing: text) } catch {
                throw ValidationError("--ttl: \(error), or none")
            }
        }
    }

    /// `4096,1MB,10%`, each a capacity of at least 1.
    static func capacities(_ text: String, option: String = "--capacity") throws -> [CapacitySpec] {
        try items(text, option: option).map { try capacity($0, option: option) }
    }

    /// One capacity of at least 1.
    static func capacity(_ text: String, option: String) throws -> CapacitySpec {
        do {
            let spec = try CapacitySpec(parsing: text)
            if case .absolute(let amount) = spec, amount < 1 {
                throw ValidationError("\(option) must be at least 1")
            }
            return spec
        } catch let error as QuantityError {
            throw ValidationError("\(option): \(error)")
        }
    }

    /// A size in bytes, greater than 0 (`4GiB`).
    static func size(_ text: String, option: String) throws -> Int {
        do {
            guard case .absolute(let bytes) = try CapacitySpec(parsing: text), bytes > 0 else {
                throw ValidationError("\(option) is a size greater than 0, e.g. 4GiB")
            }
            return bytes
        } catch let error as QuantityError {
            throw ValidationError("\(option): \(error)")
        }
    }
}
