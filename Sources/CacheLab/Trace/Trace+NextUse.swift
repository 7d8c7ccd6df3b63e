extension Trace {
    /// Each request's next use: the position of the next request for the same key, numbered as
    /// libCacheSim's `oracleGeneral` files number it (`next_access_vtime`: the 1-based index of that
    /// request), or `Int64.max` if the key is never requested again (the files' -1, which
    /// libCacheSim's reader turns into `INT64_MAX`). Events do not count as requests.
    ///
    /// One backward pass with a preallocated map from key to the last position seen; for a trace
    /// with named keys (dense ids below `keyNames.count`) the map is a flat array.
    ///
    /// - Complexity: O(n) time, O(distinct keys) extra space, for n requests.
    public func nextUses() -> [Int64] {
        var result = [Int64](repeating: .max, count: count)
        guard count > 0 else { return result }
        result.withUnsafeMutableBufferPointer { next in
            keys.withUnsafeBufferPointer { keys in
                if let names = keyNames {
                    var seen = [Int64](repeating: .max, count: names.count)
                    seen.withUnsafeMutableBufferPointer { seen in
                        for position in stride(from: keys.count - 1, through: 0, by: -1) {
                            let key = Int(keys[position])
                            next[position] = seen[key]
                            seen[key] = Int64(position + 1)
                        }
                    }
                } else {
                    var seen = [UInt64: Int64](minimumCapacity: keys.count)
                    for position in stride(from: keys.count - 1, through: 0, by: -1) {
                        // One hash lookup: read the old position and store the new one together.
                        let key = keys[position]
                        next[position] = seen.updateValue(Int64(position + 1), forKey: key) ?? .max
                    }
                }
            }
        }
        return result
    }
}
