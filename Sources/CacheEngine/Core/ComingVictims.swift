/// The victims a lookahead saw coming on the last request, next first, each with how far its
/// data has been requested: 1, its entry and the policy's data; 2, its key's index bucket too.
/// Slot -1: none.
@usableFromInline package struct ComingVictims {
    @usableFromInline package static let capacity = 3
    @usableFromInline package var slots = InlineArray<3, Int32>(repeating: -1)
    @usableFromInline package var stages = InlineArray<3, UInt8>(repeating: 0)

    /// `slot`'s stage (0: it was not among them).
    @inline(__always)
    @inlinable package func stage(of slot: Int32) -> UInt8 {
        for depth in 0..<Self.capacity where slots[depth] == slot { return stages[depth] }
        return 0
    }

    @inlinable package init(
        slots: InlineArray<3, Int32> = InlineArray<3, Int32>(repeating: -1),
        stages: InlineArray<3, UInt8> = InlineArray<3, UInt8>(repeating: 0)
    ) {
        self.slots = slots
        self.stages = stages
    }
}
