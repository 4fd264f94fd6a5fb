import Foundation
import MockServerHTTP

/// What a recording hides before anything is written: the values of some headers, and of some
/// fields of JSON bodies, are replaced with ``replacement``. The client and the upstream still see
/// the real values; no file does.
///
/// ```swift
/// var mask = RecordingMask.standard
/// mask.headers.append("X-Api-Key")
/// mask.jsonFields.append("password")
/// ```
public struct RecordingMask: Sendable, Equatable {
    /// Header names whose values are replaced (any case).
    public var headers: [String]
    /// JSON object keys whose values are replaced, at any depth, in request and response bodies
    /// whose type is JSON.
    public var jsonFields: [String]
    /// What stands in for a masked value.
    public var replacement: String

    /// The default: `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`.
    public static let standard = RecordingMask(headers: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"])

    /// A mask of `headers` and `jsonFields`.
    public init(headers: [String] = [], jsonFields: [String] = [], replacement: String = "MASKED") {
        self.headers = headers
        self.jsonFields = jsonFields
        self.replacement = replacement
    }

    /// Whether the header `name` is masked.
    public func masks(header name: String) -> Bool {
        headers.contains { $0.equalsIgnoringASCIICase(name) }
    }

    /// `headers` with masked values replaced.
    func masked(_ headers: HTTPHeaders) -> HTTPHeaders {
        guard headers.contains(where: { masks(header: $0.name) }) else { return headers }
        var result = HTTPHeaders()
        for field in headers {
            result.add(name: field.name, value: masks(header: field.name) ? replacement : field.value)
        }
        return result
    }

    /// `body` with masked JSON fields replaced, when its `contentType` is JSON and it holds one;
    /// `nil` when nothing in it is masked (it is written as it came).
    func maskedJSON(_ body: [UInt8], contentType: String?) -> [UInt8]? {
        guard !jsonFields.isEmpty, !body.isEmpty, Self.isJSON(contentType),
              let value = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) else { return nil }
        var changed = false
        let masked = mask(value, changed: &changed)
        guard changed, let data = try? JSONSerialization.data(withJSONObject: masked, options: [.fragmentsAllowed, .sortedKeys]) else { return nil }
        return Array(data)
    }

    private func mask(_ value: Any, changed: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, member) in object {
                if jsonFields.contains(key) {
                    changed = true
                    result[key] = replacement
                } else {
                    result[key] = mask(member, changed: &changed)
                }
            }
            return result
        }
        if let array = value as? [Any] { return array.map { mask($0, changed: &changed) } }
        return value
    }

    static func isJSON(_ contentType: String?) -> Bool {
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/json" || type.hasSuffix("+json")
    }
}
