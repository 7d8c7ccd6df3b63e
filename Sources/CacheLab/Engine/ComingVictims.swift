/// The victims a lookahead saw coming on the last request, next first, each with how far its
/// data has been requested: 1, its entry and the policy's data; 2, its key's index bucket too.
/// Slot -1: none.
struct ComingVictims {
    static let capacity = 3
    var slots = InlineArray<3, Int32>(repeating: -1)
    var stages = InlineArray<3, UInt8>(repeating: 0)

    /// `slot`'s stage (0: it was not among them).
    @inline(__always)
    func stage(of slot: Int32) -> UInt8 {
        for depth in 0..<Self.capacity where slots[depth] == slot { return stages[depth] }
        return 0
    }
}
