extension Array {
    /// The first index whose element satisfies `predicate`, which must be false for a prefix of
    /// the array and true for the rest (binary search); `count` if none does.
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension ArraySlice {
    /// The offset from `startIndex` of the first element satisfying `predicate` (as
    /// `Array.partitioningIndex`).
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low - startIndex
    }
}
