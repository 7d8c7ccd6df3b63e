import ArgumentParser
import CacheEngine
import CacheLab

/// The comma-separated lists and quantities the commands take.
enum ListOptions {
    /// `lru,arc` or `all` (every policy, or with `onlineOnly` every one a real client can run).
    static func policies(_ text: String, onlineOnly: Bool = false) throws -> [PolicyKind] {
        if text == "all" { return onlineOnly ? PolicyKind.online : PolicyKind.allCases }
        return try text.split(separator: ",").map { name in
            guard let kind = PolicyKind(rawValue: name.trimmingCharacters()) else {
                throw ValidationError(
                    "unknown policy '\(name)'; choose from \(PolicyKind.allCases.map(\.rawValue).joined(separator: ", ")), or all"
                )
            }
            return kind
        }
    }

    /// `none,1h,7d`: lifetimes in milliseconds, nil for none.
    static func ttls(_ text: String) throws -> [Int64?] {
        try text.split(separator: ",").map { item -> Int64? in
            let text = item.trimmingCharacters()
            if text == "none" { return nil }
            do { return try Quantity.milliseconds(parsing: text) } catch {
                throw ValidationError("--ttl: \(error), or none")
            }
        }
    }

    /// `4096,1MB,10%`, each a capacity of at least 1.
    static func capacities(_ text: String, option: String = "--capacity") throws -> [CapacitySpec] {
        try text.split(separator: ",").map { try capacity(String($0), option: option) }
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
