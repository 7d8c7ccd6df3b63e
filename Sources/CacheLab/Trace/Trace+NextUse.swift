import CacheEngine

extension Trace {
    /// Each request's next use: the position of the next request for the same key, numbered as
    /// libCacheSim's `oracleGeneral` files number it (`next_access_vtime`: the 1-based index of that
    /// request), or `Int64.max` if the key is never requested again (the files' -1, which
    /// libCacheSim's reader turns into `INT64_MAX`). Events do not count as requests.
    ///
    /// One backward pass with a flat array of each key's last position seen, indexed by a dense id:
    /// the key itself for a trace with named keys (ids below `keyNames.count`), else one the pass
    /// assigns on first sight.
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
                    // The engine's index numbers each key on first sight: a multiplicative hash and
                    // a short probe, where a Dictionary would hash with SipHash on every request.
                    var ids = SlotIndex<UInt64>(minimumCapacity: 1 << 16)
                    var seen: [Int64] = []
                    for position in stride(from: keys.count - 1, through: 0, by: -1) {
                        let key = keys[position]
                        let id: Int32
                        if let known = ids.slot(for: key) {
                            id = known
                        } else {
                            id = Int32(truncatingIfNeeded: seen.count)
                            ids.insert(key, slot: id)
                            seen.append(.max)
                        }
                        next[position] = seen[Int(id)]
                        seen[Int(id)] = Int64(position + 1)
                    }
                }
            }
        }
        return result
    }
}
