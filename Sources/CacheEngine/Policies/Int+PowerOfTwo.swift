extension Int {
    /// The least power of two at least `self` (1 for 1 and below): table sizes of the sketches.
    @inlinable package var nextPowerOfTwo: Int {
        self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}
