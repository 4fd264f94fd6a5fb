import MockServerCore
import MockServerProtobuf

/// A ``ProtoSchema`` built from `FileDescriptorProto`s in protobuf's JSON (what
/// Tests/Python/protojson_conformance.py prints from protoc's descriptors), so that the
/// conformance table's schema is the one Python compiled, field for field. Test code only: the
/// package's own readers are the `.proto` reader and the descriptor-set reader.
enum DescriptorJSONSchema {
    /// The schema of `files` (a JSON array of FileDescriptorProtos).
    static func schema(_ files: JSONNode) -> ProtoSchema {
        guard case .array(let items) = files.kind else { return ProtoSchema(files: []) }
        return ProtoSchema(files: items.map(file))
    }

    private static func file(_ json: JSONNode) -> ProtoFile {
        let members = json.objectMembers ?? [:]
        let package = members["package"]?.stringValue ?? ""
        let syntax: ProtoFile.Syntax = members["syntax"]?.stringValue == "proto3" ? .proto3 : .proto2
        let prefix = package.isEmpty ? "" : package + "."
        return ProtoFile(name: members["name"]?.stringValue ?? "", package: package, syntax: syntax,
                         dependencies: strings(members["dependency"]),
                         messages: array(members["messageType"]).map { message($0, prefix: prefix, syntax: syntax) },
                         enums: array(members["enumType"]).map { enumType($0, prefix: prefix, syntax: syntax) })
    }

    private static func message(_ json: JSONNode, prefix: String, syntax: ProtoFile.Syntax) -> ProtoMessage {
        let members = json.objectMembers ?? [:]
        let name = members["name"]?.stringValue ?? ""
        let fullName = prefix + name
        let fields = array(members["field"]).map { field($0, syntax: syntax) }
        let oneofs = array(members["oneofDecl"]).map { $0.objectMembers?["name"]?.stringValue ?? "" }
        let isMapEntry = members["options"]?.objectMembers?["mapEntry"].map { if case .bool(true) = $0.kind { true } else { false } } ?? false
        return ProtoMessage(name: name, fullName: fullName, fields: fields, oneofs: oneofs,
                            nestedMessages: array(members["nestedType"]).map { message($0, prefix: fullName + ".", syntax: syntax) },
                            nestedEnums: array(members["enumType"]).map { enumType($0, prefix: fullName + ".", syntax: syntax) },
                            isMapEntry: isMapEntry)
    }

    private static func field(_ json: JSONNode, syntax: ProtoFile.Syntax) -> ProtoField {
        let members = json.objectMembers ?? [:]
        let typeName = members["typeName"]?.stringValue ?? ""
        let type: ProtoFieldType = switch members["type"]?.stringValue ?? "" {
        case "TYPE_DOUBLE": .double
        case "TYPE_FLOAT": .float
        case "TYPE_INT64": .int64
        case "TYPE_UINT64": .uint64
        case "TYPE_INT32": .int32
        case "TYPE_FIXED64": .fixed64
        case "TYPE_FIXED32": .fixed32
        case "TYPE_BOOL": .bool
        case "TYPE_STRING": .string
        case "TYPE_BYTES": .bytes
        case "TYPE_UINT32": .uint32
        case "TYPE_SFIXED32": .sfixed32
        case "TYPE_SFIXED64": .sfixed64
        case "TYPE_SINT32": .sint32
        case "TYPE_SINT64": .sint64
        case "TYPE_GROUP": .group(typeName)
        case "TYPE_ENUM": .enum(typeName)
        default: .message(typeName)
        }
        let proto3Optional = members["proto3Optional"].map { if case .bool(true) = $0.kind { true } else { false } } ?? false
        let label: ProtoField.Label = switch members["label"]?.stringValue ?? "" {
        case "LABEL_REPEATED": .repeated
        case "LABEL_REQUIRED": .required
        default: syntax == .proto3 && !proto3Optional ? .implicit : .optional
        }
        let packedOption = members["options"]?.objectMembers?["packed"].map { if case .bool(true) = $0.kind { true } else { false } }
        let oneofIndex: Int? = members["oneofIndex"].flatMap { $0.numberText.flatMap { Int($0) } }
        return ProtoField(name: members["name"]?.stringValue ?? "", jsonName: members["jsonName"]?.stringValue,
                          number: Int32(members["number"]?.numberText ?? "0") ?? 0, label: label, type: type,
                          oneofIndex: oneofIndex, isProto3Optional: proto3Optional,
                          isPacked: label == .repeated && type.isPackable && (packedOption ?? (syntax == .proto3)))
    }

    private static func enumType(_ json: JSONNode, prefix: String, syntax: ProtoFile.Syntax) -> ProtoEnum {
        let members = json.objectMembers ?? [:]
        let name = members["name"]?.stringValue ?? ""
        let values = array(members["value"]).map { value in
            ProtoEnum.Value(name: value.objectMembers?["name"]?.stringValue ?? "", number: Int32(value.objectMembers?["number"]?.numberText ?? "0") ?? 0)
        }
        return ProtoEnum(name: name, fullName: prefix + name, values: values, isClosed: syntax == .proto2)
    }

    private static func array(_ json: JSONNode?) -> [JSONNode] {
        if case .array(let items)? = json?.kind { items } else { [] }
    }

    private static func strings(_ json: JSONNode?) -> [String] {
        array(json).compactMap(\.stringValue)
    }
}
