import Foundation

/// JSON values as `JSONSerialization` takes and gives them, for building and comparing bodies.
enum StubJSON {
    /// `value` with optionals unwrapped (`nil` becomes `NSNull`) all the way down.
    static func normalized(_ value: Any) -> Any {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return NSNull() }
            return normalized(wrapped)
        }
        if let dictionary = value as? [String: Any] { return dictionary.mapValues(normalized) }
        if let array = value as? [Any] { return array.map(normalized) }
        return value
    }

    /// The canonical text of JSON `data` (keys sorted), or `nil` when it is not JSON: two bodies
    /// are the same JSON when their canonical texts are equal.
    static func canonical(_ data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              let text = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}
