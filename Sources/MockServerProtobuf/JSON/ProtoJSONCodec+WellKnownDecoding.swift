import MockServerCore

/// Binary to JSON for the well-known types whose JSON is not an object of their fields. Their
/// fields' numbers are `google/protobuf/*.proto`'s, known here, so a schema need not hold them.
extension ProtoJSONCodec {
    /// The JSON of a `known` message in `bytes[range]`.
    func wellKnownJSON(_ known: ProtoWellKnownType, _ bytes: [UInt8], _ range: Range<Int>, depth: Int, _ emit: Bool) throws(ProtoWireError) -> JSONNode {
        var reader = ProtoWireReader(bytes, range: range)
        switch known {
        case .timestamp, .duration:
            var seconds: Int64 = 0
            var nanos: Int32 = 0
            while let (number, wire) = try reader.tag() {
                if number == 1, wire == .varint {
                    seconds = Int64(bitPattern: try reader.varint())
                } else if number == 2, wire == .varint {
                    nanos = Int32(truncatingIfNeeded: try reader.varint())
                } else {
                    _ = try reader.skip(wire, field: number)
                }
            }
            let name = known == .timestamp ? "Timestamp" : "Duration"
            let text = known == .timestamp ? ProtoTimeText.timestamp(seconds: seconds, nanos: nanos) : ProtoTimeText.duration(seconds: seconds, nanos: nanos)
            guard let text else {
                throw ProtoWireError(.invalidValue(type: "google.protobuf.\(name)", reason: "seconds \(seconds) and nanos \(nanos) are out of range"), at: range.lowerBound)
            }
            return .string(text)
        case .wrapper(let type):
            var value = Self.defaultJSON(type)
            while let (number, wire) = try reader.tag() {
                if number == 1, wire == ProtoMessageLayout.wireType(of: type) {
                    value = try Self.scalarJSON(type, name: "value", &reader).0
                } else {
                    _ = try reader.skip(wire, field: number)
                }
            }
            return value
        case .empty:
            while let (number, wire) = try reader.tag() { _ = try reader.skip(wire, field: number) }
            return JSONNode(kind: .object([]), location: JSONNode.madeLocation)
        case .fieldMask:
            var paths: [String] = []
            while let (number, wire) = try reader.tag() {
                if number == 1, wire == .lengthDelimited {
                    let start = reader.index
                    let path = try Self.scalarJSON(.string, name: "paths", &reader).0.stringValue ?? ""
                    let camel = ProtoField.lowerCamelCase(path)
                    // A path JSON cannot write back as itself (`a__b`, `aB`, a comma, an empty one).
                    guard !path.isEmpty, !path.contains(","), Self.snakeCase(camel) == path else {
                        throw ProtoWireError(.invalidValue(type: "google.protobuf.FieldMask", reason: "path \"\(path)\" has no lowerCamelCase form"), at: start)
                    }
                    paths.append(camel)
                } else {
                    _ = try reader.skip(wire, field: number)
                }
            }
            return .string(paths.joined(separator: ","))
        case .structValue:
            return try structJSON(&reader, depth: depth, emit)
        case .listValue:
            var items: [JSONNode] = []
            while let (number, wire) = try reader.tag() {
                if number == 1, wire == .lengthDelimited {
                    items.append(try messageJSON(.wellKnown(.value), bytes, [try reader.lengthDelimited()], depth: depth + 1, emit))
                } else {
                    _ = try reader.skip(wire, field: number)
                }
            }
            return .array(items)
        case .value:
            return try valueJSON(&reader, depth: depth, emit)
        case .any:
            return try anyJSON(&reader, depth: depth, emit)
        }
    }

    /// A `Struct`'s fields (a map of strings to `Value`s) as an object.
    private func structJSON(_ reader: inout ProtoWireReader, depth: Int, _ emit: Bool) throws(ProtoWireError) -> JSONNode {
        var members: [JSONNode.Member] = []
        var places: [String: Int] = [:]
        while let (number, wire) = try reader.tag() {
            guard number == 1, wire == .lengthDelimited else {
                _ = try reader.skip(wire, field: number)
                continue
            }
            var entry = ProtoWireReader(reader.bytes, range: try reader.lengthDelimited())
            var key = ""
            var values: [Range<Int>] = []
            while let (inner, innerWire) = try entry.tag() {
                if inner == 1, innerWire == .lengthDelimited {
                    key = try Self.scalarJSON(.string, name: "key", &entry).0.stringValue ?? ""
                } else if inner == 2, innerWire == .lengthDelimited {
                    values.append(try entry.lengthDelimited())
                } else {
                    _ = try entry.skip(innerWire, field: inner)
                }
            }
            let value = values.isEmpty ? JSONNode.null : try messageJSON(.wellKnown(.value), reader.bytes, values, depth: depth + 1, emit)
            let member = JSONNode.Member(key: key, keyLocation: JSONNode.madeLocation, value: value)
            if let place = places[key] { members[place] = member } else {
                places[key] = members.count
                members.append(member)
            }
        }
        return JSONNode(kind: .object(members), location: JSONNode.madeLocation)
    }

    /// A `Value`: its kind's JSON (the last of its oneof's members), `null` for `null_value` or none.
    private func valueJSON(_ reader: inout ProtoWireReader, depth: Int, _ emit: Bool) throws(ProtoWireError) -> JSONNode {
        var result = JSONNode.null
        var nested: (kind: ProtoWellKnownType, ranges: [Range<Int>])?
        while let (number, wire) = try reader.tag() {
            switch (number, wire) {
            case (1, .varint):
                _ = try reader.varint()
                result = .null
                nested = nil
            case (2, .fixed64):
                let value = Double(bitPattern: try reader.fixed64())
                guard value.isFinite else {
                    throw ProtoWireError(.invalidValue(type: "google.protobuf.Value", reason: "number_value \(value) is not a JSON number"), at: reader.index - 8)
                }
                result = .number(value)
                nested = nil
            case (3, .lengthDelimited):
                result = try Self.scalarJSON(.string, name: "string_value", &reader).0
                nested = nil
            case (4, .varint):
                result = .bool(try reader.varint() != 0)
                nested = nil
            case (5, .lengthDelimited), (6, .lengthDelimited):
                let kind: ProtoWellKnownType = number == 5 ? .structValue : .listValue
                let range = try reader.lengthDelimited()
                if let current = nested, current.kind == kind { nested = (kind, current.ranges + [range]) } else { nested = (kind, [range]) }
            default:
                _ = try reader.skip(wire, field: number)
            }
        }
        if let nested { return try messageJSON(.wellKnown(nested.kind), reader.bytes, nested.ranges, depth: depth + 1, emit) }
        return result
    }

    /// An `Any`: `{"@type": URL, fields…}`, or `{"@type": URL, "value": JSON}` for a well-known
    /// type's payload; `{}` for an empty one.
    private func anyJSON(_ reader: inout ProtoWireReader, depth: Int, _ emit: Bool) throws(ProtoWireError) -> JSONNode {
        var url = ""
        var value = reader.index ..< reader.index
        let start = reader.index
        while let (number, wire) = try reader.tag() {
            if number == 1, wire == .lengthDelimited {
                url = try Self.scalarJSON(.string, name: "type_url", &reader).0.stringValue ?? ""
            } else if number == 2, wire == .lengthDelimited {
                value = try reader.lengthDelimited()
            } else {
                _ = try reader.skip(wire, field: number)
            }
        }
        guard !url.isEmpty || !value.isEmpty else { return JSONNode(kind: .object([]), location: JSONNode.madeLocation) }
        let name = Self.typeName(fromURL: url)
        guard let kind = kind(ofType: name) else { throw ProtoWireError(.unknownType(url), at: start) }
        let payload = try messageJSON(kind, reader.bytes, [value], depth: depth + 1, emit)
        var members = [JSONNode.Member(key: "@type", keyLocation: JSONNode.madeLocation, value: .string(url))]
        if case .wellKnown(let known) = kind, known.isValueInAny {
            members.append(JSONNode.Member(key: "value", keyLocation: JSONNode.madeLocation, value: payload))
        } else if case .object(let fields) = payload.kind {
            members += fields
        }
        return JSONNode(kind: .object(members), location: JSONNode.madeLocation)
    }

    /// A lowerCamelCase path in snake_case: `_` and the lower-case letter before each capital.
    static func snakeCase(_ path: some StringProtocol) -> String {
        var snake = ""
        for character in path {
            if character.isUppercase {
                snake += "_" + character.lowercased()
            } else {
                snake.append(character)
            }
        }
        return snake
    }
}
