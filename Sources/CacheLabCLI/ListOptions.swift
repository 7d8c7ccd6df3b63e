import ArgumentParser
import CacheEngine
import CacheLab

/// The comma-separated lists and quantities the commands take.
enum ListOptions {
    /// `lru,arc` or `all` (every policy, or with `onlineOnly` every one a real client can run).
    static func policies(_ text: String, onlineOnly: Bool = false) throws -> [PolicyKind] {
        if text.lowercased() == "all" { return onlineOnly ? PolicyKind.online : PolicyKind.allCases }
        let kinds = try items(text, option: "--policy").map { try PolicyKind.named($0) }
        if let twice = kinds.first(where: { kind in kinds.count { $0 == kind } > 1 }) {
            throw ValidationError("--policy names \(twice.rawValue) twice")
        }
        return kinds
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
        if let twice = items.first(where: { item in items.count { $0.lowercased() == item.lowercased() } > 1 }) {
            throw ValidationError("\(option) names \(twice) twice in '\(text)'")
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

    /// A note for each bare number below 1,000 in `text` (a list of sizes in bytes): it is smaller
    /// than any image, so a unit was most likely forgotten. `objects` names the option that counts
    /// objects instead, where there is one.
    static func bareBytesNotes(_ text: String?, option: String, objects: String? = nil) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",").compactMap { item in
            let item = item.trimmingCharacters()
            guard let amount = Int(item), amount < 1_000 else { return nil }
            let alternative = objects.map { ", or count objects with \($0)" } ?? ""
            return
                "note: \(option) \(item) is \(amount) bytes; give a size a unit (\(item)MB, \(item)KiB)\(alternative)"
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
