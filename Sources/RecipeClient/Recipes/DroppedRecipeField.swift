/// An optional field of one recipe that decoding set to `nil` because its value could not be used:
/// a URL that does not parse, a link that is not an absolute http(s) URL, a value that is not a
/// string.
///
/// A missing field or an explicit `null` is not dropped: it is simply absent. The recipe itself is
/// kept; only this field is lost. Required fields are never dropped (their problems fail the list).
public struct DroppedRecipeField: Sendable, Equatable, CustomStringConvertible {
    /// The `uuid` of the recipe that lost the field.
    public var recipeUUID: String
    /// The field's key as the API spells it, e.g. `photo_url_small`.
    public var key: String
    /// Why the value was dropped, e.g. `"not a url" is not a URL`.
    public var reason: String

    public init(recipeUUID: String, key: String, reason: String) {
        self.recipeUUID = recipeUUID
        self.key = key
        self.reason = reason
    }

    /// One line: `recipe <uuid>: dropped <key> (<reason>)`.
    public var description: String {
        "recipe \(recipeUUID): dropped \(key) (\(reason))"
    }
}
