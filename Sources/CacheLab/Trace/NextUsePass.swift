import CacheEngine

/// The one backward pass behind every next use (`Trace.nextUses()` in memory, `NextUseFile` a
/// block at a time from disk): fed a trace's keys from the last request to the first, it gives
/// each request the position of the next request for the same key, numbered as libCacheSim's
/// `oracleGeneral` files number it (`next_access_vtime`: the 1-based index of that request), or
/// `Int64.max` if the key is never requested again (the files' -1, which libCacheSim's reader
/// turns into `INT64_MAX`).
///
/// Each key's last position seen lives in a flat array indexed by a dense id: the key itself when
/// the keys are already dense (a trace with named keys: ids below `keyNames.count`), else one the
/// pass assigns on first sight through the engine's index (a multiplicative hash and a short
/// probe, where a Dictionary would hash with SipHash on every request).
///
/// - Complexity: O(1) expected per request; O(distinct keys) space.
struct NextUsePass {
    private var ids: SlotIndex<UInt64>?
    private var seen: [Int64]

    /// A pass over keys that are ids below `denseKeys` already, or (nil) over any keys.
    init(denseKeys: Int?) {
        if let denseKeys {
            ids = nil
            seen = [Int64](repeating: .max, count: denseKeys)
        } else {
            ids = SlotIndex<UInt64>(minimumCapacity: 1 << 16)
            seen = []
        }
    }

    /// Fills `uses[i]` for the request at position `start + i`, whose key is `keys[i]`. Blocks
    /// come last first: every request after `start + keys.count - 1` was fed before.
    mutating func backward(
        keys: UnsafeBufferPointer<UInt64>, start: Int, into uses: UnsafeMutableBufferPointer<Int64>
    ) {
        precondition(uses.count >= keys.count, "a next use for every key")
        guard var index = ids else {
            seen.withUnsafeMutableBufferPointer { seen in
                for position in stride(from: keys.count - 1, through: 0, by: -1) {
                    let id = Int(keys[position])
                    uses[position] = seen[id]
                    seen[id] = Int64(start + position + 1)
                }
            }
            return
        }
        ids = nil  // taken out for the block, so that inserting into it copies nothing
        defer { ids = index }
        for position in stride(from: keys.count - 1, through: 0, by: -1) {
            let key = keys[position]
            let id: Int
            if let known = index.slot(for: key) {
                id = Int(known)
            } else {
                id = seen.count
                index.insert(key, slot: Int32(truncatingIfNeeded: id))
                seen.append(.max)
            }
            uses[position] = seen[id]
            seen[id] = Int64(start + position + 1)
        }
    }
}
