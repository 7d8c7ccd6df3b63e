/// A favourite as a store keeps it: the recipe as received (opaque JSON the list model encodes),
/// keyed by its uuid, and when it was favourited (ms since 1970, the caller's clock).
public struct StoredFavourite: Sendable, Equatable {
    public var uuid: String
    public var json: [UInt8]
    public var favouritedAt: Int64

    public init(uuid: String, json: [UInt8], favouritedAt: Int64) {
        self.uuid = uuid
        self.json = json
        self.favouritedAt = favouritedAt
    }
}
