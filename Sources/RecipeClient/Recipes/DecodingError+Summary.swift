/// A short account of a decoding failure for error messages: what went wrong and where, as a
/// path such as `recipes[1].name`.
extension DecodingError {
    public var summary: String {
        switch self {
        case .keyNotFound(let key, let context):
            "missing key \"\(key.stringValue)\" at \(Self.path(context.codingPath))"
        case .valueNotFound(let type, let context):
            "null where \(type) was expected at \(Self.path(context.codingPath))"
        case .typeMismatch(let type, let context):
            "expected \(type) at \(Self.path(context.codingPath))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            "the body is not valid JSON"
        case .dataCorrupted(let context):
            "\(context.debugDescription) at \(Self.path(context.codingPath))"
        @unknown default:
            "\(self)"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else {
            return "the top level"
        }
        var result = ""
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return result
    }
}
