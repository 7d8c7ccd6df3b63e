/// A Fenwick tree (binary indexed tree; P. M. Fenwick, "A new data structure for cumulative
/// frequency tables", Software: Practice and Experience 24(3), 1994): amounts at positions
/// `0..<count`, with the sum of any prefix. The stack-distance passes (`LRUStackPass`,
/// `ReuseProfile`) count what was used between two requests with it.
///
/// - Complexity: O(log n) `add` and `sum(before:)`; O(n) to build from amounts.
@usableFromInline package struct FenwickTree<Amount: AdditiveArithmetic> {
    // tree[i] (1-based) sums the amounts at positions i − lowbit(i) ..< i.
    @usableFromInline package var tree: [Amount]

    /// `count` positions, each holding zero.
    @inlinable package init(count: Int) {
        tree = Array(repeating: .zero, count: count + 1)
    }

    /// The positions holding `amounts`, built in O(n): each node passes its sum to its parent.
    @inlinable package init(_ amounts: [Amount]) {
        tree = [.zero] + amounts
        for node in 1..<tree.count {
            let parent = node + (node & -node)
            if parent < tree.count { tree[parent] += tree[node] }
        }
    }

    @inlinable package var count: Int { tree.count - 1 }

    /// Adds `amount` at `position`.
    @inline(__always)
    @inlinable package mutating func add(_ amount: Amount, at position: Int) {
        var node = position + 1
        while node < tree.count {
            tree[node] += amount
            node &+= node & -node
        }
    }

    /// The sum of the amounts at positions `0..<end`.
    @inline(__always)
    @inlinable package func sum(before end: Int) -> Amount {
        var total = Amount.zero
        var node = end
        while node > 0 {
            total += tree[node]
            node &= node &- 1
        }
        return total
    }
}
