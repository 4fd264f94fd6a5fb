import MockServerCore
import MockServerProtobuf

/// One method's messages converted by their schema: a request's bytes to proto3 JSON (every field,
/// those at their defaults too, so that patterns and templates see them), an answer's JSON to bytes,
/// a request matched against a JSON pattern, a value looked up for a template, and an error's
/// `google.rpc.Status` built from JSON details. Made once per endpoint at load; used on every call.
package struct GRPCMessageCoder: Sendable {
    /// The schema's converter.
    package let codec: ProtoJSONCodec
    /// The method, with its request and response types.
    package let method: ProtoService.Method
    /// The call's path (`/routeguide.RouteGuide/GetFeature`).
    package let path: String
    /// The schema, for field names in patterns and templates.
    private let schema: ProtoSchema

    /// The coder of the method `path` names in `schema`, or `nil` when the schema has none.
    package init?(schema: ProtoSchema, codec: ProtoJSONCodec, path: String) {
        guard let (_, method) = schema.method(path: path) else { return nil }
        self.schema = schema
        self.codec = codec
        self.method = method
        self.path = path
    }

    /// The request message `bytes` as JSON, every field written (defaults too).
    package func request(_ bytes: [UInt8]) throws(ProtoWireError) -> JSONNode {
        try codec.json(fromBinary: bytes, type: method.inputType, emittingDefaults: true)
    }

    /// The response message `json` as bytes.
    package func response(_ json: JSONNode) throws(ProtoJSONError) -> [UInt8] {
        try codec.binary(fromJSON: json, type: method.outputType)
    }

    /// The JSON text `text` (an answer's rendered template) as a response message's bytes.
    package func response(text: String) throws(ProtoJSONError) -> [UInt8] {
        let json: JSONNode
        do {
            json = try JSONReader.parse(Array(text.utf8), options: .strict)
        } catch {
            throw ProtoJSONError(path: "$", at: JSONNode.madeLocation, "the answer's JSON with its values put in is not JSON (\(error)): \(text)")
        }
        return try response(json)
    }

    /// Whether the request message `message` (as ``request(_:)`` gives it) has the fields `pattern`
    /// gives (JSON names or proto names; others ignored): objects member by member, arrays element by
    /// element and whole, numbers by value (`"5"` matches `5`, as the mapping writes 64-bit ones),
    /// and a field at its default value matches its absence.
    package func matches(_ message: JSONNode, pattern: JSONNode) -> Bool {
        Self.matches(message, pattern: pattern, type: method.inputType, schema: schema)
    }

    private static func matches(_ value: JSONNode, pattern: JSONNode, type: String?, schema: ProtoSchema) -> Bool {
        switch (value.kind, pattern.kind) {
        case (.object(let members), .object(let wanted)):
            let message = type.flatMap { schema.message($0) }
            for entry in wanted {
                let field = message?.fields.first { $0.jsonName == entry.key || $0.name == entry.key }
                let key = field?.jsonName ?? entry.key
                let fieldType: String? = field.flatMap {
                    if case .message(let name) = $0.type, !(schema.message(name)?.isMapEntry ?? false) { return name }
                    return nil
                }
                guard let found = members.last(where: { $0.key == key }) else {
                    // Absent: matches a default value only.
                    if isDefault(entry.value) { continue }
                    return false
                }
                guard matches(found.value, pattern: entry.value, type: fieldType, schema: schema) else { return false }
            }
            return true
        case (.array(let items), .array(let wanted)):
            guard items.count == wanted.count else { return false }
            return zip(items, wanted).allSatisfy { matches($0, pattern: $1, type: type, schema: schema) }
        case (.null, _):
            return isDefault(pattern)
        case (_, .null):
            return isDefault(value)
        default:
            return scalarText(value) == scalarText(pattern)
        }
    }

    /// A value's text for comparing scalars: a number by its value (`"5"`, `5` and `5.0` alike),
    /// a string, a boolean.
    private static func scalarText(_ value: JSONNode) -> String? {
        switch value.kind {
        case .string(let text):
            if let number = Double(text), text.first.map({ $0.isNumber || $0 == "-" }) == true { return numberText(number) }
            return "s:" + text
        case .number(let number): return numberText(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null, .object, .array: return nil
        }
    }

    private static func numberText(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e18 { return "n:" + String(Int64(number)) }
        return "n:" + String(number)
    }

    /// Whether a pattern's value is a field's default: `0`, `false`, `""`, `null`, `[]`, `{}`, an
    /// enum's zero value cannot be told from here and is compared as written.
    private static func isDefault(_ value: JSONNode) -> Bool {
        switch value.kind {
        case .null: true
        case .bool(let flag): !flag
        case .number(let number): number == 0
        case .string(let text): text.isEmpty || text == "0"
        case .array(let items): items.isEmpty
        case .object(let members): members.isEmpty
        }
    }

    /// The value at `path` (`location.latitude`, or `location.lat_e7` by proto names; `notes.0` for
    /// an element) in the request message `message`, for a `${json:…}` template: a string as it is,
    /// a number or boolean as JSON writes it, a field at its default as that default (`0`, `false`),
    /// an object or array as compact JSON; `nil` when the path names no field.
    package func value(_ path: String, in message: JSONNode) -> String? {
        var current = message
        var type: String? = method.inputType
        for key in path.split(separator: ".") {
            switch current.kind {
            case .object(let members):
                let field = type.flatMap { schema.message($0) }?.fields.first { $0.jsonName == key || $0.name == key }
                let name = field?.jsonName ?? String(key)
                guard let member = members.last(where: { $0.key == name }) else { return nil }
                current = member.value
                if let field, case .message(let next) = field.type { type = next } else { type = nil }
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        switch current.kind {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .number: return current.numberText ?? JSONText.write(current, layout: .compact)
        case .object, .array: return JSONText.write(current, layout: .compact)
        }
    }
}
