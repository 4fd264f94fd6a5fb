import MockServerCore

/// JSON to binary for the well-known types' own JSON forms.
extension ProtoJSONCodec {
    /// Writes the fields of a `known` message given as its JSON form.
    func writeWellKnown(_ known: ProtoWellKnownType, _ json: JSONNode, path: String, depth: Int, into writer: inout ProtoWireWriter) throws(ProtoJSONError) {
        switch known {
        case .timestamp, .duration:
            let name = known == .timestamp ? "Timestamp" : "Duration"
            guard case .string(let text) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected a string for google.protobuf.\(name), found \(json.typeName)") }
            let parsed = known == .timestamp ? ProtoTimeText.parseTimestamp(text) : ProtoTimeText.parseDuration(text)
            guard let (seconds, nanos) = parsed else {
                let form = known == .timestamp ? "an RFC 3339 time from 0001 to 9999 (1972-01-01T10:00:20.021Z)" : "seconds with up to 9 decimals and an s (1.5s)"
                throw ProtoJSONError(path: path, at: json.location, "\"\(text)\" is not \(form)")
            }
            if seconds != 0 {
                writer.tag(1, .varint)
                writer.varint(UInt64(bitPattern: seconds))
            }
            if nanos != 0 {
                writer.tag(2, .varint)
                writer.varint(UInt64(bitPattern: Int64(nanos)))
            }
        case .wrapper(let type):
            let value = try Self.wireValue(type, json, path: path)
            guard !value.isZero else { return }
            writer.tag(1, ProtoMessageLayout.wireType(of: type))
            value.write(into: &writer)
        case .empty:
            guard case .object(let members) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected {} for google.protobuf.Empty, found \(json.typeName)") }
            if let member = members.first { throw ProtoJSONError(path: path + "." + member.key, at: member.keyLocation, "google.protobuf.Empty has no field \"\(member.key)\"") }
        case .fieldMask:
            guard case .string(let text) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected a string for google.protobuf.FieldMask, found \(json.typeName)") }
            guard !text.isEmpty else { return }
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard !part.isEmpty, !part.contains("_") else {
                    throw ProtoJSONError(path: path, at: json.location, "\"\(part)\" is not a field path in lowerCamelCase")
                }
                let snake = Self.snakeCase(part)
                writer.tag(1, .lengthDelimited)
                writer.lengthDelimited(Array(snake.utf8))
            }
        case .structValue:
            guard case .object(let members) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected an object for google.protobuf.Struct, found \(json.typeName)") }
            for member in members {
                var entry = ProtoWireWriter()
                entry.tag(1, .lengthDelimited)
                entry.lengthDelimited(Array(member.key.utf8))
                var value = ProtoWireWriter()
                try writeMessage(.wellKnown(.value), member.value, path: path + "." + member.key, depth: depth + 1, into: &value)
                entry.tag(2, .lengthDelimited)
                entry.lengthDelimited(value.bytes)
                writer.tag(1, .lengthDelimited)
                writer.lengthDelimited(entry.bytes)
            }
        case .listValue:
            guard case .array(let items) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected an array for google.protobuf.ListValue, found \(json.typeName)") }
            for (offset, item) in items.enumerated() {
                var value = ProtoWireWriter()
                try writeMessage(.wellKnown(.value), item, path: path + "[\(offset)]", depth: depth + 1, into: &value)
                writer.tag(1, .lengthDelimited)
                writer.lengthDelimited(value.bytes)
            }
        case .value:
            switch json.kind {
            case .null:
                writer.tag(1, .varint)
                writer.varint(0)
            case .number(let number):
                writer.tag(2, .fixed64)
                writer.fixed64(number.bitPattern)
            case .string(let text):
                writer.tag(3, .lengthDelimited)
                writer.lengthDelimited(Array(text.utf8))
            case .bool(let flag):
                writer.tag(4, .varint)
                writer.varint(flag ? 1 : 0)
            case .object, .array:
                let isObject: Bool
                if case .object = json.kind { isObject = true } else { isObject = false }
                var inner = ProtoWireWriter()
                try writeMessage(.wellKnown(isObject ? .structValue : .listValue), json, path: path, depth: depth + 1, into: &inner)
                writer.tag(isObject ? 5 : 6, .lengthDelimited)
                writer.lengthDelimited(inner.bytes)
            }
        case .any:
            try writeAny(json, path: path, depth: depth, into: &writer)
        }
    }

    /// Writes an `Any` given as `{"@type": URL, fields…}` or `{"@type": URL, "value": JSON}`.
    private func writeAny(_ json: JSONNode, path: String, depth: Int, into writer: inout ProtoWireWriter) throws(ProtoJSONError) {
        guard case .object(let members) = json.kind else { throw ProtoJSONError(path: path, at: json.location, "expected an object for google.protobuf.Any, found \(json.typeName)") }
        guard !members.isEmpty else { return }
        guard let typeMember = members.first(where: { $0.key == "@type" }) else {
            throw ProtoJSONError(path: path, at: json.location, "google.protobuf.Any needs \"@type\"")
        }
        guard case .string(let url) = typeMember.value.kind else {
            throw ProtoJSONError(path: path + ".@type", at: typeMember.value.location, "expected a type URL string, found \(typeMember.value.typeName)")
        }
        let name = Self.typeName(fromURL: url)
        guard !name.isEmpty, let kind = kind(ofType: name) else {
            throw ProtoJSONError(path: path + ".@type", at: typeMember.value.location, "type \(name) (of \"\(url)\") is not in the schema")
        }
        var payload = ProtoWireWriter()
        switch kind {
        case .wellKnown(let known) where known.isValueInAny:
            for member in members where member.key != "@type" && member.key != "value" {
                throw ProtoJSONError(path: path + "." + member.key, at: member.keyLocation, "an Any of \(name) has only \"@type\" and \"value\"")
            }
            guard let value = members.first(where: { $0.key == "value" }) else {
                throw ProtoJSONError(path: path, at: json.location, "an Any of \(name) needs \"value\"")
            }
            try writeMessage(kind, value.value, path: path + ".value", depth: depth + 1, into: &payload)
        case .wellKnown:
            let rest = members.filter { $0.key != "@type" }
            try writeMessage(kind, JSONNode(kind: .object(rest), location: json.location), path: path, depth: depth + 1, into: &payload)
        case .message(let index):
            guard depth + 1 <= Self.maximumDepth else { throw ProtoJSONError(path: path, at: json.location, "messages nested more than \(Self.maximumDepth) deep") }
            try writeObject(index, json, path: path, depth: depth + 1, skipping: "@type", into: &payload)
        default:
            throw ProtoJSONError(path: path + ".@type", at: typeMember.value.location, "type \(name) is not a message")
        }
        writer.tag(1, .lengthDelimited)
        writer.lengthDelimited(Array(url.utf8))
        if !payload.bytes.isEmpty {
            writer.tag(2, .lengthDelimited)
            writer.lengthDelimited(payload.bytes)
        }
    }
}
