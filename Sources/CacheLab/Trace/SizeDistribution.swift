/// How the objects of a generated trace are sized.
public enum SizeDistribution: Sendable, Equatable, CustomStringConvertible {
    /// Log-uniform in `min...max` bytes: mostly small, a few large; the median is near
    /// `sqrt(min × max)`.
    case logUniform(min: Int, max: Int)
    /// Like an image list's photos: seven in eight objects are thumbnails of 6–16 KB, one in
    /// eight a large photo of 50–160 KB, each log-uniform in its range.
    case images

    public var description: String {
        switch self {
        case .logUniform(let low, let high): "\(low)-\(high)"
        case .images: "images"
        }
    }
}
