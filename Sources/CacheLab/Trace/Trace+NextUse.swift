extension Trace {
    /// Each request's next use (`NextUsePass`): the 1-based position of the next request for the
    /// same key, as libCacheSim's `oracleGeneral` files number it, or `Int64.max` if the key is
    /// never requested again. Events do not count as requests.
    ///
    /// - Complexity: O(n) time, O(distinct keys) extra space, for n requests.
    public func nextUses() -> [Int64] {
        var result = [Int64](repeating: .max, count: count)
        guard count > 0 else { return result }
        var pass = NextUsePass(denseKeys: keyNames?.count)
        result.withUnsafeMutableBufferPointer { next in
            keys.withUnsafeBufferPointer { keys in pass.backward(keys: keys, start: 0, into: next) }
        }
        return result
    }
}
