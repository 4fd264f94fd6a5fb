import MockServerCore

/// The parts of a request that hold a secret by their name: query parameters, fields of an
/// `application/x-www-form-urlencoded` body, and keys of a JSON body (at any depth). A recording
/// writes their values as ``replacement``; a replay masks an incoming request the same way before
/// it looks it up, so that a masked fixture answers the original request.
///
/// Names compare case-insensitively; a query or form name is compared percent-decoded (`+` a space).
package struct HTTPRequestMask: Sendable, Equatable {
    /// Query parameter names whose values are replaced.
    package var queryParameters: [String]
    /// Form field names whose values are replaced.
    package var formFields: [String]
    /// JSON object keys whose values are replaced, at any depth.
    package var jsonFields: [String]
    /// What stands in for a masked value.
    package var replacement: String

    /// The names masked by default in queries, forms and JSON bodies.
    package static let standardNames = ["password", "passwd", "token", "access_token", "refresh_token", "api_key", "apikey", "secret", "client_secret"]

    /// The default: ``standardNames`` everywhere.
    package static let standard = HTTPRequestMask(queryParameters: standardNames, formFields: standardNames, jsonFields: standardNames)

    /// A mask of these names.
    package init(queryParameters: [String] = [], formFields: [String] = [], jsonFields: [String] = [], replacement: String = "MASKED") {
        self.queryParameters = queryParameters
        self.formFields = formFields
        self.jsonFields = jsonFields
        self.replacement = replacement
    }

    /// This mask with `other`'s names too (each once).
    package func adding(_ other: HTTPRequestMask) -> HTTPRequestMask {
        func union(_ a: [String], _ b: [String]) -> [String] { a + b.filter { name in !Self.contains(a, name) } }
        return HTTPRequestMask(queryParameters: union(queryParameters, other.queryParameters), formFields: union(formFields, other.formFields),
                               jsonFields: union(jsonFields, other.jsonFields), replacement: replacement)
    }

    /// This mask without `other`'s names.
    package func removing(_ other: HTTPRequestMask) -> HTTPRequestMask {
        func difference(_ a: [String], _ b: [String]) -> [String] { a.filter { name in !Self.contains(b, name) } }
        return HTTPRequestMask(queryParameters: difference(queryParameters, other.queryParameters), formFields: difference(formFields, other.formFields),
                               jsonFields: difference(jsonFields, other.jsonFields), replacement: replacement)
    }

    /// Whether this mask replaces nothing.
    package var isEmpty: Bool { queryParameters.isEmpty && formFields.isEmpty && jsonFields.isEmpty }

    /// `request` with its masked query parameters and body fields replaced (a `Content-Length` set
    /// to the new body's length); `nil` when nothing in it is masked.
    package func masked(_ request: HTTPMockRequest) -> HTTPMockRequest? {
        // Most requests have neither a query nor a body: nothing is copied or parsed for them.
        let query = request.query.flatMap(maskedQuery)
        let body = request.hasBody ? maskedBody(request.body, contentType: request.headers["Content-Type"]) : nil
        guard query != nil || body != nil else { return nil }
        let target = query.map { String(request.target.prefix { $0 != "?" }) + "?" + $0 } ?? request.target
        let newBody = body ?? request.body
        var head = "\(request.method) \(target) \(request.version)\r\n"
        for field in request.headers {
            let value = field.name.equalsIgnoringASCIICase("content-length") ? String(newBody.count) : field.value
            head += "\(field.name): \(value)\r\n"
        }
        head += "\r\n"
        let bytes = Array(head.utf8) + newBody
        return HTTPMockRequest(method: request.method, target: target, version: request.version, headers: request.headers,
                           input: InputUnit(bytes: bytes), body: .range(head.utf8.count..<bytes.count))
    }

    /// `query` with each masked parameter's value replaced; `nil` when none is masked.
    package func maskedQuery(_ query: String) -> String? {
        Self.maskedPairs(query, names: queryParameters, replacement: replacement)
    }

    /// `body` with masked fields replaced when its `contentType` is a form or JSON; `nil` when
    /// nothing in it is masked.
    package func maskedBody(_ body: [UInt8], contentType: String?) -> [UInt8]? {
        guard !body.isEmpty, let contentType else { return nil }
        // The media type is compared in place: a recording asks this of every response it writes.
        if HTTPFieldText.mediaType(of: contentType, is: "application/x-www-form-urlencoded") {
            // A body that is not all UTF-8 is still masked (its other bad bytes become U+FFFD in
            // what is written): a secret is never kept for want of a clean byte elsewhere.
            return Self.maskedPairs(String(decoding: body, as: UTF8.self), names: formFields, replacement: replacement).map { Array($0.utf8) }
        }
        return HTTPFieldText.isJSON(contentType) ? maskedJSON(body) : nil
    }

    /// A JSON `body` with masked keys' values replaced (written compactly, members in their order);
    /// `nil` when it is not JSON or holds no masked key.
    package func maskedJSON(_ body: [UInt8]) -> [UInt8]? {
        maskedJSONValue(of: body).map { Array(JSONText.write($0).utf8) }
    }

    /// A JSON `body` read, with masked keys' values replaced, for a caller to write in its own
    /// layout; `nil` when it is not JSON or holds no masked key. The one place a mask reads a body:
    /// as ``JSONReader/Options/accepting``, so that a repeated key or a trailing comma does not keep
    /// a secret in.
    package func maskedJSONValue(of body: [UInt8]) -> JSONNode? {
        guard !jsonFields.isEmpty, let value = try? JSONReader.parse(body, options: .accepting) else { return nil }
        return maskedJSON(value)
    }

    /// `value` with the values of masked keys replaced, at any depth (members in their order); `nil`
    /// when it holds no masked key, or only values masked already. The one JSON masker: a
    /// recording's (``HTTPRecorder/Mask``) writes what it gives in its own layout.
    package func maskedJSON(_ value: JSONNode) -> JSONNode? {
        var changed = false
        let masked = mask(value, changed: &changed)
        return changed ? masked : nil
    }

    private func mask(_ value: JSONNode, changed: inout Bool) -> JSONNode {
        switch value.kind {
        case .object(let members):
            var result: [JSONNode.Member] = []
            for member in members {
                if Self.contains(jsonFields, member.key) {
                    if case .string(let text) = member.value.kind, text == replacement {
                        result.append(member)
                    } else {
                        changed = true
                        result.append(JSONNode.Member(key: member.key, keyLocation: member.keyLocation,
                                                       value: JSONNode(kind: .string(replacement), location: member.value.location)))
                    }
                } else {
                    result.append(JSONNode.Member(key: member.key, keyLocation: member.keyLocation, value: mask(member.value, changed: &changed)))
                }
            }
            return JSONNode(kind: .object(result), location: value.location)
        case .array(let items):
            return JSONNode(kind: .array(items.map { mask($0, changed: &changed) }), location: value.location)
        default:
            return value
        }
    }

    /// `name=value&…` with the values of `names` replaced; `nil` when none is there.
    private static func maskedPairs(_ text: String, names: [String], replacement: String) -> String? {
        guard !names.isEmpty else { return nil }
        var changed = false
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            let decoded = PercentCoding.decode(name.utf8, plusAsSpace: true).map { String(decoding: $0, as: UTF8.self) } ?? String(name)
            guard contains(names, decoded), pair[pair.index(after: equals)...] != replacement else { return String(pair) }
            changed = true
            return String(name) + "=" + replacement
        }
        return changed ? pairs.joined(separator: "&") : nil
    }

    private static func contains(_ names: [String], _ name: String) -> Bool {
        names.contains { $0.equalsIgnoringASCIICase(name) }
    }
}
