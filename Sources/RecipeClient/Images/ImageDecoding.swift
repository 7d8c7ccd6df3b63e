import ClientModel

/// What the pipeline asks of the app's image decoder: the pixel size an image will decode to, so
/// that a memory tier costing decoded bitmaps (`MemoryCost.decoded`) charges an image the app did
/// not give a size for by its bitmap (width × height × 4), not its encoded bytes.
///
/// The pipeline never decodes and does not know which decoder answers: on Apple platforms an app
/// reads the size with ImageIO (`CGImageSourceCopyPropertiesAtIndex`, its pixel width and height)
/// and so gets every format ImageIO knows; `ImageHeaderDecoder`, the default, reads the JPEG, PNG,
/// GIF and WebP headers itself (`ImageHeader`).
public protocol ImageDecoding: Sendable {
    /// The pixel size `bytes` decode to, or nil when the decoder cannot tell (the image is then
    /// costed by its encoded bytes).
    func pixelSize(of bytes: [UInt8]) -> PixelSize?
}

/// Reads an image's pixel size from its header (`ImageHeader`), decoding nothing.
public struct ImageHeaderDecoder: ImageDecoding {
    public init() {}

    public func pixelSize(of bytes: [UInt8]) -> PixelSize? {
        ImageHeader.pixelSize(of: bytes)
    }
}
