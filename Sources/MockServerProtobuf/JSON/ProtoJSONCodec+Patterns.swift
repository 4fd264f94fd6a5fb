import MockServerCore

/// Request patterns read by the schema (``ProtoJSONPattern``), and messages matched against them.
extension ProtoJSONCodec {
    /// The pattern `json` for messages of `type`, checked as the JSON mapping checks a message (an
    /// unknown field, a wrong type, a value out of range are refused, with the path and place).
    package func pattern(_ json: JSONNode, type: String) throws(ProtoJSONError) -> ProtoJSONPattern {
        guard let kind = kind(ofType: type) else { throw ProtoJSONError(path: "$", at: json.location, "type \(type) is not in the schema") }
        let name = type.hasPrefix(".") ? String(type.dropFirst()) : type
        return ProtoJSONPattern(type: name, root: try patternNode(kind, json, path: "$", depth: 1))
    }

    /// The reason the message in `bytes` does not match `pattern`, or `nil` when it matches.
    package func mismatch(of pattern: ProtoJSONPattern, inBinary bytes: [UInt8]) throws(ProtoWireError) -> ProtoJSONMismatch? {
        pattern.mismatch(in: try json(fromBinary: bytes, type: pattern.type, emittingDefaults: true))
    }

    /// The pattern of a message of `kind` given as `json`.
    private func patternNode(_ kind: ProtoMessageLayout.Kind, _ json: JSONNode, path: String, depth: Int) throws(ProtoJSONError) -> ProtoJSONPattern.Node {
        guard depth <= Self.maximumDepth else { throw ProtoJSONError(path: path, at: json.location, "messages nested more than \(Self.maximumDepth) deep") }
        if case .null = json.kind { return .absent }
        switch kind {
        case .message(let index), .group(let index):
            let layout = layouts[index]
            guard case .object(let members) = json.kind else {
                throw ProtoJSONError(path: path, at: json.location, "expected an object for \(layout.fullName), found \(json.typeName)")
            }
            // Checked whole as a message first: unknown fields, fields given twice, two members of a oneof.
            var scratch = ProtoWireWriter()
            try writeObject(index, json, path: path, depth: depth, skipping: nil, into: &scratch)
            var fields: [(jsonName: String, node: ProtoJSONPattern.Node)] = []
            for member in members {
                guard let position = layout.fieldByKey[member.key] else { continue }
                let field = layout.fields[position]
                fields.append((field.field.jsonName, try fieldPattern(field, member.value, path: path + "." + member.key, depth: depth)))
            }
            return .message(fields)
        case .wellKnown:
            var writer = ProtoWireWriter()
            try writeMessage(kind, json, path: path, depth: depth, into: &writer)
            do {
                let canonical = try messageJSON(kind, writer.bytes, [0 ..< writer.bytes.count], depth: depth, true)
                let absent = try messageJSON(kind, [], [0 ..< 0], depth: depth, true)
                return .json(canonical, absent: absent)
            } catch {
                throw ProtoJSONError(path: path, at: json.location, "\(error)")
            }
        default:
            throw ProtoJSONError(path: path, at: json.location, "not a message")
        }
    }

    /// The pattern of one field given as `json`.
    private func fieldPattern(_ field: ProtoMessageLayout.Field, _ json: JSONNode, path: String, depth: Int) throws(ProtoJSONError) -> ProtoJSONPattern.Node {
        if case .null = json.kind, !Self.takesNull(field) { return .absent }
        if case .map(let entry) = field.kind {
            guard case .object(let members) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected an object") }
            let entryLayout = layouts[entry]
            guard let keyPosition = entryLayout.index(ofNumber: 1), let valuePosition = entryLayout.index(ofNumber: 2) else {
                throw ProtoJSONError(path: path, at: json.location, "\(entryLayout.fullName) is not a map entry")
            }
            var entries: [(key: String, node: ProtoJSONPattern.Node)] = []
            for member in members {
                let memberPath = path + "[" + member.key.escaped(.json) + "]"
                let keyField = entryLayout.fields[keyPosition]
                let keyJSON: JSONNode
                if case .scalar(.bool) = keyField.kind {
                    keyJSON = JSONNode(kind: .bool(member.key == "true"), location: member.keyLocation)
                } else {
                    keyJSON = JSONNode(kind: .string(member.key), location: member.keyLocation)
                }
                let key = try leaf(keyField, keyJSON, path: memberPath).0
                let text: String = switch key.kind {
                case .string(let string): string
                case .bool(let flag): flag ? "true" : "false"
                default: key.numberText ?? member.key
                }
                entries.append((text, try elementPattern(entryLayout.fields[valuePosition], member.value, path: memberPath, depth: depth)))
            }
            return .map(entries)
        }
        guard field.isRepeated else { return try elementPattern(field, json, path: path, depth: depth) }
        guard case .array(let items) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected an array for repeated field \(field.field.name), found \(json.typeName)") }
        var nodes: [ProtoJSONPattern.Node] = []
        for (offset, item) in items.enumerated() {
            nodes.append(try elementPattern(field, item, path: path + "[\(offset)]", depth: depth))
        }
        return .array(nodes)
    }

    /// The pattern of one value of `field` (a singular field's, a repeated field's element, a map's value).
    private func elementPattern(_ field: ProtoMessageLayout.Field, _ json: JSONNode, path: String, depth: Int) throws(ProtoJSONError) -> ProtoJSONPattern.Node {
        switch field.kind {
        case .message, .group, .wellKnown:
            if case .null = json.kind, !Self.takesNull(field) { return .absent }
            return try patternNode(field.kind, json, path: path, depth: depth + 1)
        case .scalar, .enumeration, .nullValue:
            let (value, isDefault) = try leaf(field, json, path: path)
            return .value(value, isDefault: isDefault)
        case .map, .unresolved:
            throw ProtoJSONError(path: path, at: json.location, "not a value")
        }
    }

    /// A scalar or enum value in the canonical JSON the decoder writes (through its bytes), and
    /// whether it is its type's default.
    func leaf(_ field: ProtoMessageLayout.Field, _ json: JSONNode, path: String) throws(ProtoJSONError) -> (JSONNode, Bool) {
        let value = try wireValue(field, json, path: path)
        var writer = ProtoWireWriter()
        value.write(into: &writer)
        var reader = ProtoWireReader(writer.bytes)
        do {
            guard let (node, isZero) = try scalarJSON(field, wire: field.wireType, &reader) else {
                throw ProtoJSONError(path: path, at: json.location, "not a value of its enum")
            }
            return (node, isZero)
        } catch let error as ProtoJSONError {
            throw error
        } catch {
            throw ProtoJSONError(path: path, at: json.location, "\(error)")
        }
    }
}
