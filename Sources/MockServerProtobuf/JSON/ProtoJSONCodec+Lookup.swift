import MockServerCore

/// Values of a decoded message for templates (`${json:location.latitude}`).
extension ProtoJSONCodec {
    /// The text of the value at `path` in `message` (the decoded JSON of a message of `type`), or
    /// `nil` when the schema has no such field or the message no such element.
    ///
    /// The path is segments joined by `.`: field names (JSON or proto: `location.lat_e7` and
    /// `location.latE7` are one field), array indexes (`features.2`, also written `features[2]`) and
    /// map keys; inside `Struct`, `Value` and `Any` values, object keys and indexes. A field at its
    /// default value renders as that value: `0`, `false`, an empty string, the enum's first name
    /// (the message may have been decoded without its defaults); a message field never set renders
    /// empty. A string renders as itself, a number as written, `null` as `null`, an object or an
    /// array as compact JSON.
    package func templateValue(at path: String, in message: JSONNode, type: String) -> String? {
        guard var kind = kind(ofType: type) else { return nil }
        var node: JSONNode? = message
        var field: ProtoMessageLayout.Field?
        var inRepeated = false
        for segment in Self.segments(path) {
            if inRepeated {
                // An element of a repeated field, or a map's entry.
                inRepeated = false
                switch node?.kind {
                case .array(let items):
                    guard let index = Int(segment), index >= 0, index < items.count else { return nil }
                    node = items[index]
                case .object(let members):
                    guard let member = members.first(where: { $0.key == segment }) else { return nil }
                    node = member.value
                default:
                    return nil
                }
                if let current = field, case .map(let entry) = current.kind {
                    let valuePosition = layouts[entry].index(ofNumber: 2)
                    field = valuePosition.map { layouts[entry].fields[$0] }
                }
                kind = field?.kind ?? .unresolved("")
                continue
            }
            switch kind {
            case .message(let index), .group(let index):
                let layout = layouts[index]
                guard let position = layout.fieldByKey[segment] else { return nil }
                let next = layout.fields[position]
                field = next
                if case .object(let members) = node?.kind {
                    node = members.first { $0.key == next.field.jsonName }?.value
                } else {
                    node = nil
                }
                if node == nil, !next.hasPresence { node = defaultJSON(next) }
                kind = next.kind
                if case .map = next.kind { inRepeated = true } else { inRepeated = next.isRepeated }
            case .wellKnown, .unresolved:
                // Generic JSON (Struct, Value, Any's fields).
                switch node?.kind {
                case .object(let members): node = members.first { $0.key == segment }?.value
                case .array(let items):
                    guard let index = Int(segment), index >= 0, index < items.count else { return nil }
                    node = items[index]
                default: return nil
                }
                guard node != nil else { return nil }
            default:
                return nil
            }
        }
        guard let node else { return "" }
        return Self.templateText(node)
    }

    /// A value as a template writes it.
    static func templateText(_ node: JSONNode) -> String {
        switch node.kind {
        case .string(let text): text
        case .number(let value): node.numberText ?? String(value)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .object, .array: JSONText.write(node, layout: .compact)
        }
    }

    /// `a.b[2].c` as `a`, `b`, `2`, `c`.
    static func segments(_ path: String) -> [String] {
        var segments: [String] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                segments.append(String(rest[..<bracket]))
                rest = rest[bracket...]
                while rest.first == "[", let close = rest.firstIndex(of: "]") {
                    segments.append(String(rest[rest.index(after: rest.startIndex) ..< close]))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                segments.append(String(rest))
            }
        }
        return segments
    }
}
