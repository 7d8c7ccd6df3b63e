/// Lists indexed by a count over one `SlotLinks` (LeCaR's and Cacheus's frequency lists, index 0
/// unused): the array grows as higher counts appear.
extension SlotArray where Element == SlotList {
    /// Appends `slot` to list `index`, first doubling the array (at least to `index + 1` lists)
    /// when it does not reach that far.
    @inline(__always)
    @inlinable package func append(_ slot: Int32, toList index: Int, in links: SlotLinks) {
        if index >= count { grow(to: Swift.max(index + 1, count * 2), filling: SlotList()) }
        self[index].append(slot, in: links)
    }

    /// The lowest index above `lowest`, up to `highest`, whose list is not empty; nil if there is
    /// none (libCacheSim's `update_min_freq`).
    @inlinable package func firstNonEmpty(above lowest: Int, through highest: Int) -> Int? {
        var index = lowest + 1
        while index <= highest {
            if !self[index].isEmpty { return index }
            index += 1
        }
        return nil
    }
}
